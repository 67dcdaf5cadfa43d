import { Injectable, Logger } from '@nestjs/common';
import { SessionsStore } from '../auth/sessions.store';
import { Clock } from '../common/clock';
import { HourlyPurge } from '../common/hourly-purge';
import { AppConfig } from '../config/app-config';
import { Leases } from '../database/leases';

const DAY_MS = 24 * 60 * 60 * 1_000;
/** The lease that lets one instance at a time purge; a holder that died frees it after this. */
const PURGE_LEASE = 'sessions:purge';
const PURGE_LEASE_MS = 10 * 60 * 1_000;

/**
 * Deletes the sessions that ended (expired, or revoked: a revocation brings the expiry forward)
 * more than SESSION_RETENTION_DAYS ago, hourly, by one instance at a time (a lease: the others skip
 * that hour), in short batches by the index on expires_at.
 */
@Injectable()
export class SessionRetention extends HourlyPurge {
  protected readonly logger = new Logger(SessionRetention.name);
  protected readonly failure = 'Purging ended sessions failed';

  constructor(
    private readonly store: SessionsStore,
    private readonly leases: Leases,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    super();
  }

  protected deleted(count: number): string {
    return `Deleted ${count} session(s) ended over ${this.config.sessions.retentionDays} days ago`;
  }

  /** Deletes the sessions past retention, unless another instance is at it; how many. */
  async purge(): Promise<number> {
    const lease = await this.leases.tryAcquire(PURGE_LEASE, PURGE_LEASE_MS);
    if (!lease) return 0;
    try {
      const cutoff = new Date(this.clock.now().getTime() - this.config.sessions.retentionDays * DAY_MS);
      return await this.store.purgeEndedBefore(cutoff);
    } finally {
      await this.leases.release(lease).catch(() => undefined);
    }
  }
}
