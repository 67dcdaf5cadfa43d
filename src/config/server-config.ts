/**
 * The HTTP server's settings: the proxies it believes, the address its links start with, where the
 * invitation page sends a visitor to sign in, and its graceful shutdown.
 */

import { isIP } from 'node:net';
import { ConfigError, Env, integer, NodeEnv, read, url } from './env-values';

/** Graceful shutdown on SIGTERM/SIGINT (see src/health/graceful-shutdown.ts). */
export interface ShutdownConfig {
  /** How long readiness fails before the server stops accepting, so that the load balancer stops sending. */
  drainMs: number;
  /** The bound on the whole shutdown: the process exits 1 if it is still running by then. */
  graceMs: number;
}

/** TRUST_PROXY, as Express takes it: which proxies in front of the server to believe about the client. */
export function trustProxy(env: Env): boolean | number | string | undefined {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  // Express also takes subnet names and comma-separated addresses or CIDR ranges.
  const named = ['loopback', 'linklocal', 'uniquelocal'];
  const valid = raw.split(',').every((part) => {
    const item = part.trim();
    const address = item.split('/')[0];
    return named.includes(item) || isIP(address) !== 0;
  });
  if (!valid) {
    throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count, or addresses/subnets, got "${raw}"`);
  }
  return raw;
}

/** PUBLIC_BASE_URL, without a trailing slash: the origin that links to this service start with. */
export function publicBaseUrl(env: Env): string | undefined {
  const raw = url(env, 'PUBLIC_BASE_URL', ['http', 'https']);
  return raw?.replace(/\/+$/, '');
}

/**
 * SIGN_IN_URL: the page is its return address, so the page's own address must be on an allowed
 * host, never one that a request's Host header made up: PUBLIC_BASE_URL or ALLOWED_HOSTS is required.
 */
export function signInUrl(env: Env): string | undefined {
  const raw = url(env, 'SIGN_IN_URL', ['http', 'https']);
  if (raw !== undefined && read(env, 'PUBLIC_BASE_URL') === undefined && read(env, 'ALLOWED_HOSTS') === undefined) {
    throw new ConfigError(
      'SIGN_IN_URL',
      'needs PUBLIC_BASE_URL or ALLOWED_HOSTS, so that the return address is on an allowed host',
    );
  }
  return raw;
}

/** Draining takes 5 s in production by default, where a load balancer must notice; none elsewhere. */
export function shutdownSettings(env: Env, nodeEnv: NodeEnv): ShutdownConfig {
  const drainSeconds = integer(env, 'SHUTDOWN_DRAIN_SECONDS', nodeEnv === 'production' ? 5 : 0, 0, 300);
  const graceSeconds = integer(env, 'SHUTDOWN_GRACE_SECONDS', 25, 1, 600);
  if (graceSeconds <= drainSeconds) {
    throw new ConfigError(
      'SHUTDOWN_GRACE_SECONDS',
      `must be more than SHUTDOWN_DRAIN_SECONDS (${drainSeconds}), got "${graceSeconds}"`,
    );
  }
  return { drainMs: drainSeconds * 1_000, graceMs: graceSeconds * 1_000 };
}
