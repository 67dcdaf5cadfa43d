/** The invitation e-mail's settings: its sender, and its outbox worker's polling and retries. */

import { ConfigError, Env, integer, read, retryDelays } from './env-values';

/** The invitation e-mail outbox worker: how often it polls and how it retries. */
export interface OutboxConfig {
  /** How often each instance looks for e-mails to send; a new invitation also wakes it at once. */
  pollIntervalMs: number;
  /** Delivery attempts before an e-mail is marked failed. */
  maxAttempts: number;
  /** Delay before the first retry; it doubles with each failure, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
}

/** MAIL_FROM: an address, bare or as `Name <address>`. */
export function mailFrom(env: Env): string {
  const address = read(env, 'MAIL_FROM') ?? 'no-reply@localhost';
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(address) && !/^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(address)) {
    throw new ConfigError('MAIL_FROM', `must be an e-mail address, got "${address}"`);
  }
  return address;
}

export function outboxSettings(env: Env): OutboxConfig {
  const { retryBaseMs, retryMaxMs } = retryDelays(
    env,
    ['OUTBOX_RETRY_BASE_MS', 2_000],
    ['OUTBOX_RETRY_MAX_MS', 600_000],
  );
  return {
    pollIntervalMs: integer(env, 'OUTBOX_POLL_INTERVAL_MS', 1_000, 10, 3_600_000),
    maxAttempts: integer(env, 'OUTBOX_MAX_ATTEMPTS', 15, 1, 1_000),
    retryBaseMs,
    retryMaxMs,
  };
}
