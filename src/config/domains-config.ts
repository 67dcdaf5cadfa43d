/**
 * Verified domains' settings (docs/domains.md): the limit, the free-mail lists' additions, the DNS
 * proof's timings and resolver.
 */

import { isIP } from 'node:net';
import { ConfigError, Env, integer, list } from './env-values';

/** Verified domains (docs/domains.md). */
export interface DomainsConfig {
  perOrg: number;
  /** Names refused as free-mail providers beside the maintained lists; lower-cased. */
  denylist: string[];
  /** Names accepted whatever the lists say; lower-cased. */
  allowlist: string[];
  verificationTtlSeconds: number;
  recheckSeconds: number;
  graceSeconds: number;
  /** `host:port` entries for the service's own resolver; empty: the system's. */
  resolverServers: string[];
  dnsTimeoutMs: number;
}

export function domainSettings(env: Env): DomainsConfig {
  const names = (name: string) => (list(env, name) ?? []).map((item) => item.toLowerCase().replace(/\.$/, ''));
  const resolverServers = list(env, 'DNS_RESOLVER_SERVERS') ?? [];
  for (const server of resolverServers) {
    // An IP address, IPv6 in brackets when a port follows; Node's resolver takes no names and aborts the process on port 0.
    const match =
      /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$/.exec(server) ?? /^([0-9a-fA-F:.]+)()$/.exec(server);
    const address = match?.[1] || match?.[2];
    const port = match?.[3];
    if (!address || isIP(address) === 0 || (port !== undefined && (Number(port) < 1 || Number(port) > 65535)))
      throw new ConfigError(
        'DNS_RESOLVER_SERVERS',
        `must list IP addresses, each with an optional port (1 to 65535), got "${server}"`,
      );
  }
  return {
    perOrg: integer(env, 'DOMAINS_PER_ORG', 10, 1, 1_000),
    denylist: names('DOMAIN_DENYLIST'),
    allowlist: names('DOMAIN_ALLOWLIST'),
    verificationTtlSeconds: integer(env, 'DOMAIN_VERIFICATION_TTL_SECONDS', 7 * 86_400, 1, 31_536_000),
    recheckSeconds: integer(env, 'DOMAIN_RECHECK_SECONDS', 86_400, 1, 31_536_000),
    graceSeconds: integer(env, 'DOMAIN_GRACE_SECONDS', 7 * 86_400, 0, 31_536_000),
    resolverServers,
    dnsTimeoutMs: integer(env, 'DNS_TIMEOUT_MS', 5_000, 10, 60_000),
  };
}
