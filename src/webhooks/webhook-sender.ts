import { Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isNonPublicAddress } from '../common/address-classifier';
import { messageOf } from '../common/api-error';
import { publicOnlyLookup, RefusedAddress } from '../common/public-only-lookup';
import { AppConfig } from '../config/app-config';
import { AttemptResult } from '../outbox/outbox-delivery-loop';

/** One request to send: the same id and body on every attempt. */
export interface WebhookRequest {
  eventId: string;
  url: string;
  payload: string;
}

/** The variable that lets receivers on loopback, link-local or private addresses through in production. */
const ALLOW_PRIVATE = 'WEBHOOK_ALLOW_PRIVATE';

class AttemptTimeout extends Error {}

export const USER_AGENT = 'tenant-invitation-service-webhooks';

/** 408 and 429 say "later"; a 5xx is the receiver's own trouble: all worth another attempt. */
const RETRYABLE_STATUS = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * Sends one webhook attempt: a POST signed per Standard Webhooks (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`), bounded by WEBHOOK_TIMEOUT_MS from connecting to the
 * status line, and says whether it was delivered (2xx), is worth retrying (timeout, connection
 * error, 408, 429, 5xx) or failed for good (any other status, a refused address). Redirects are
 * not followed: a 3xx is a failure, so that a receiver cannot send the request elsewhere.
 *
 * SSRF: with `refusePrivateAddresses`, the address is checked after resolving and the connection
 * goes to exactly the address checked (the check is the socket's own DNS lookup), so that a name
 * that resolves to a public address for a check and to a private one for the connection (DNS
 * rebinding) cannot get through.
 */
@Injectable()
export class WebhookSender {
  private readonly signer?: Webhook;
  private readonly lookup?: LookupFunction;

  constructor(private readonly config: AppConfig) {
    const { secret, refusePrivateAddresses } = config.webhooks;
    this.signer = secret === undefined ? undefined : new Webhook(secret);
    this.lookup = refusePrivateAddresses ? publicOnlyLookup(ALLOW_PRIVATE) : undefined;
  }

  /** The Standard Webhooks headers of `request` sent at `at`. */
  private headers(request: WebhookRequest, at: Date): Record<string, string> {
    if (!this.signer) throw new Error('WEBHOOK_SECRET is not set');
    return {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': request.eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1_000)),
      'webhook-signature': this.signer.sign(request.eventId, at, request.payload),
    };
  }

  async send(request: WebhookRequest, at: Date): Promise<AttemptResult> {
    const url = new URL(request.url);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // A literal address is never looked up: it is checked here instead.
    if (this.lookup && isIP(host) !== 0 && isNonPublicAddress(host)) {
      return { outcome: 'failed', reason: new RefusedAddress(host, host, ALLOW_PRIVATE).message };
    }
    let status: number;
    try {
      status = await this.post(url, request.payload, this.headers(request, at));
    } catch (error) {
      if (error instanceof RefusedAddress) return { outcome: 'failed', reason: error.message };
      if (error instanceof AttemptTimeout) return { outcome: 'retry', reason: error.message };
      return { outcome: 'retry', reason: `connection failed: ${messageOf(error)}` };
    }
    if (status >= 200 && status < 300) return { outcome: 'delivered' };
    return { outcome: RETRYABLE_STATUS(status) ? 'retry' : 'failed', reason: `answered ${status}` };
  }

  /** POSTs `body` and resolves with the response's status; the response body is read and dropped. */
  private post(url: URL, body: string, headers: Record<string, string>): Promise<number> {
    const { timeoutMs } = this.config.webhooks;
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      // A connection of its own (no pool): each attempt resolves and checks the address afresh.
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: false,
          lookup: this.lookup,
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      // Whatever is still open then (connecting, waiting for the status line, a body that never ends) is cut.
      const timer = setTimeout(
        () => request.destroy(new AttemptTimeout(`no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      request.once('close', () => clearTimeout(timer));
      request.once('error', reject);
      request.end(body);
    });
  }
}
