import { Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { isNonPublicAddress } from '../common/address-classifier';
import { messageOf } from '../common/api-error';
import { publicOnlyLookup, RefusedAddress } from '../common/public-only-lookup';
import { AppConfig } from '../config/app-config';

/** The most an identity provider's answer may hold. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
/** Redirects followed by a GET (a discovery document or key set that moved). */
const MAX_REDIRECTS = 3;
const ALLOW_PRIVATE = 'SSO_ALLOW_PRIVATE';

/** Why a fetch from an identity provider failed, in words that an owner can act on. */
export class SsoFetchError extends Error {}

/** What openid-client hands its custom fetch. */
export interface FetchOptions {
  method?: string;
  headers?: Record<string, string> | Headers;
  body?: string | URLSearchParams | null;
  redirect?: 'manual' | 'follow' | 'error';
  signal?: AbortSignal;
}

/**
 * Every request the service makes to an identity provider (its discovery document, its keys, the code
 * exchange), under the webhooks' SSRF rule: under NODE_ENV=production https only and no loopback,
 * link-local or private address unless SSO_ALLOW_PRIVATE=true, checked on the address the socket
 * connects to (after DNS resolution) and again on every redirect; bounded by SSO_HTTP_TIMEOUT_MS
 * and 1 MB. A fetch compatible with openid-client's `customFetch`.
 */
@Injectable()
export class SsoHttp {
  private readonly lookup?: LookupFunction;

  constructor(private readonly config: AppConfig) {
    this.lookup = config.sso.refusePrivateAddresses ? publicOnlyLookup(ALLOW_PRIVATE) : undefined;
  }

  /** Throws SsoFetchError when the address may not be fetched at all. */
  check(url: URL): void {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new SsoFetchError(`${url.protocol} is not fetched: only https (and http outside production)`);
    if (this.config.sso.httpsOnly && url.protocol !== 'https:')
      throw new SsoFetchError(`${url.origin} is not https, which NODE_ENV=production requires`);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (this.lookup && (isIP(host) !== 0 || host === 'localhost')) {
      const address = host === 'localhost' ? '127.0.0.1' : host;
      if (isNonPublicAddress(address))
        throw new SsoFetchError(new RefusedAddress(host, address, ALLOW_PRIVATE).message);
    }
  }

  /** GET `url` as JSON, following up to 3 redirects (each checked). */
  async getJson(url: URL): Promise<unknown> {
    const { text, at } = await this.get(url, 'application/json');
    try {
      return JSON.parse(text);
    } catch {
      throw new SsoFetchError(`${at.href} did not answer JSON`);
    }
  }

  /** GET `url`'s body as text, following up to 3 redirects (each checked); where it was read at last. */
  async get(url: URL, accept: string): Promise<{ text: string; at: URL }> {
    let current = url;
    for (let hop = 0; ; hop++) {
      const response = await this.fetch(current.href, { method: 'GET', headers: { accept } });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        if (hop >= MAX_REDIRECTS) throw new SsoFetchError(`more than ${MAX_REDIRECTS} redirects from ${url.href}`);
        current = new URL(location, current);
        continue;
      }
      if (response.status !== 200) throw new SsoFetchError(`${current.href} answered ${response.status}`);
      return { text: await response.text(), at: current };
    }
  }

  /** One request, never following a redirect (openid-client asks for `manual`). */
  readonly fetch = async (href: string, options: FetchOptions = {}): Promise<Response> => {
    const url = new URL(href);
    this.check(url);
    const headers: Record<string, string> = {};
    new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).forEach(
      (value, name) => (headers[name] = value),
    );
    const body = options.body === undefined || options.body === null ? undefined : String(options.body);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const { status, responseHeaders, content } = await this.send(url, options.method ?? 'GET', headers, body);
    return new Response(status === 204 || status === 304 ? null : new Uint8Array(content), {
      status,
      headers: responseHeaders,
    });
  };

  private send(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<{ status: number; responseHeaders: Headers; content: Buffer }> {
    const { httpTimeoutMs } = this.config.sso;
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(url, { method, headers, agent: false, lookup: this.lookup }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES)
            request.destroy(new SsoFetchError(`${url.origin} answered more than ${MAX_RESPONSE_BYTES} bytes`));
          else chunks.push(chunk);
        });
        response.once('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          resolve({ status: response.statusCode ?? 0, responseHeaders, content: Buffer.concat(chunks) });
        });
        response.once('error', reject);
      });
      const timer = setTimeout(
        () => request.destroy(new SsoFetchError(`${url.origin} did not answer within ${httpTimeoutMs} ms`)),
        httpTimeoutMs,
      );
      request.once('close', () => clearTimeout(timer));
      request.once('error', (error) =>
        reject(
          error instanceof SsoFetchError
            ? error
            : new SsoFetchError(
                error instanceof RefusedAddress ? error.message : `${url.origin} unreachable: ${messageOf(error)}`,
              ),
        ),
      );
      request.end(body);
    });
  }
}
