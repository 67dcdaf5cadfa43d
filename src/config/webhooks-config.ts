/** The webhooks' settings (docs/webhooks.md): the receivers, the signing secret, and the worker's timings. */

import { isIP } from 'node:net';
import { isNonPublicAddress } from '../common/address-classifier';
import { boolean, ConfigError, Env, integer, list, NodeEnv, read, retryDelays, url } from './env-values';

/** Webhooks (docs/webhooks.md): where every audit event is sent, signed per Standard Webhooks, and how. */
export interface WebhooksConfig {
  /** The receivers; empty when webhooks are off. */
  urls: string[];
  /** The signing secret, `whsec_` and base64 (Standard Webhooks); set whenever `urls` is not empty. */
  secret?: string;
  /** Production, unless WEBHOOK_ALLOW_PRIVATE=true: refuse receivers on loopback, link-local or private addresses. */
  refusePrivateAddresses: boolean;
  /** The bound on one attempt, from connecting to the response's status line. */
  timeoutMs: number;
  /** How often each instance looks for deliveries that are due. */
  pollIntervalMs: number;
  /** Attempts before a delivery is marked failed. */
  maxAttempts: number;
  /** Delay before the first retry; it doubles with each failure, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
}

/** Standard Webhooks secrets are 24 to 64 random bytes in base64, usually after `whsec_`. */
function webhookSecret(env: Env): string | undefined {
  const raw = read(env, 'WEBHOOK_SECRET');
  if (raw === undefined) return undefined;
  const base64 = raw.replace(/^whsec_/, '');
  const bytes = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(base64)
    ? Buffer.from(base64, 'base64').length
    : 0;
  if (bytes < 24 || bytes > 64) {
    throw new ConfigError(
      'WEBHOOK_SECRET',
      'must be a Standard Webhooks secret: whsec_ then 24 to 64 bytes in base64 (e.g. whsec_$(openssl rand -base64 32))',
    );
  }
  return raw;
}

function webhookUrls(env: Env, refusePrivateAddresses: boolean): string[] {
  const urls = [...new Set(list(env, 'WEBHOOK_URLS') ?? [])];
  if (urls.length > 20) throw new ConfigError('WEBHOOK_URLS', `must list at most 20 URLs, got ${urls.length}`);
  for (const raw of urls) {
    const parsed = url({ WEBHOOK_URLS: raw }, 'WEBHOOK_URLS', ['http', 'https']);
    const { username, password, hostname } = new URL(parsed!);
    // Logged and stored with every delivery: the signature authenticates the sender instead.
    if (username || password)
      throw new ConfigError('WEBHOOK_URLS', `must not carry credentials, got one for ${hostname}`);
    // Names are checked when they are resolved, at each delivery; literal addresses can be refused now.
    const literal = isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0 || hostname === 'localhost';
    if (refusePrivateAddresses && literal && isNonPublicAddress(hostname === 'localhost' ? '127.0.0.1' : hostname)) {
      throw new ConfigError(
        'WEBHOOK_URLS',
        `must not name a loopback, link-local or private address in production (${hostname}) unless WEBHOOK_ALLOW_PRIVATE=true`,
      );
    }
  }
  return urls;
}

export function webhookSettings(env: Env, nodeEnv: NodeEnv): WebhooksConfig {
  const refusePrivateAddresses = nodeEnv === 'production' && !boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false);
  const urls = webhookUrls(env, refusePrivateAddresses);
  const secret = webhookSecret(env);
  if (urls.length > 0 && secret === undefined)
    throw new ConfigError('WEBHOOK_SECRET', 'must be set when WEBHOOK_URLS is');
  const { retryBaseMs, retryMaxMs } = retryDelays(
    env,
    ['WEBHOOK_RETRY_BASE_MS', 5_000],
    ['WEBHOOK_RETRY_MAX_MS', 3_600_000],
  );
  return {
    urls,
    secret,
    refusePrivateAddresses,
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 5_000, 100, 30_000),
    pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 1_000, 10, 3_600_000),
    maxAttempts: integer(env, 'WEBHOOK_MAX_ATTEMPTS', 12, 1, 100),
    retryBaseMs,
    retryMaxMs,
  };
}
