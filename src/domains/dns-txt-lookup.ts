import { Injectable } from '@nestjs/common';
import { promises as dns } from 'node:dns';
import { AppConfig } from '../config/app-config';

/** The resolver failed or did not answer in time: the check found nothing either way. */
export class DnsUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`DNS lookup failed: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'DnsUnavailableError';
  }
}

/** Codes of an answer that there is no such record: a result, not a failure. */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NOTFOUND', 'NODATA']);

/**
 * TXT look-ups through a resolver of the service's own: DNS_RESOLVER_SERVERS (`host:port`), or the
 * system's servers; one try, bounded by DNS_TIMEOUT_MS (the resolver's own timeout, and a race).
 */
@Injectable()
export class DnsTxtLookup {
  constructor(private readonly config: AppConfig) {}

  /** Each TXT record at `name`, its chunks joined; [] when there is none. Throws DnsUnavailableError. */
  async txt(name: string): Promise<string[]> {
    const { resolverServers, dnsTimeoutMs } = this.config.domains;
    const resolver = new dns.Resolver({ timeout: dnsTimeoutMs, tries: 1 });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${dnsTimeoutMs} ms`)), dnsTimeoutMs);
    });
    try {
      if (resolverServers.length > 0) resolver.setServers(resolverServers);
      const records = await Promise.race([resolver.resolveTxt(name), timeout]);
      return records.map((chunks) => chunks.join(''));
    } catch (error) {
      if (NO_RECORD.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw new DnsUnavailableError(error);
    } finally {
      clearTimeout(timer);
      resolver.cancel();
    }
  }
}
