import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { HourlyPurge } from '../common/hourly-purge';
import { AppConfig } from '../config/app-config';
import { AuditEventsStore } from './audit-events.store';

const DAY_MS = 24 * 60 * 60 * 1_000;

/**
 * Deletes the events older than AUDIT_RETENTION_DAYS, hourly, on every instance. Safe with
 * several instances: each deletes by age, in short batches, so two purges at once delete the
 * same rows and the second finds nothing left; no coordination is needed.
 */
@Injectable()
export class AuditRetention extends HourlyPurge {
  protected readonly logger = new Logger(AuditRetention.name);
  protected readonly failure = 'Purging old audit events failed';

  constructor(
    private readonly store: AuditEventsStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    super();
  }

  protected deleted(count: number): string {
    return `Deleted ${count} audit event(s) older than ${this.config.auditRetentionDays} days`;
  }

  /** Deletes the events past retention; how many. */
  async purge(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.auditRetentionDays * DAY_MS);
    return this.store.deleteBefore(cutoff);
  }
}
