import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { PeriodicTask } from '../common/periodic-task';
import { AppConfig } from '../config/app-config';
import { AuditEventsStore } from './audit-events.store';

const DAY_MS = 24 * 60 * 60 * 1_000;
const PURGE_EVERY_MS = 60 * 60 * 1_000;
/** The first purge waits until start-up is over. */
const FIRST_PURGE_AFTER_MS = 60 * 1_000;

/**
 * Deletes the events older than AUDIT_RETENTION_DAYS, hourly, on every instance. Safe with
 * several instances: each deletes by age, in short batches, so two purges at once delete the
 * same rows and the second finds nothing left; no coordination is needed.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuditRetention.name);
  private readonly hourly = new PeriodicTask(
    async () => {
      const deleted = await this.purge();
      if (deleted)
        this.logger.log(`Deleted ${deleted} audit event(s) older than ${this.config.auditRetentionDays} days`);
    },
    (error) => this.logger.error(`Purging old audit events failed: ${messageOf(error)}`),
  );

  constructor(
    private readonly store: AuditEventsStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.hourly.start(FIRST_PURGE_AFTER_MS, PURGE_EVERY_MS);
  }

  onApplicationShutdown(): void {
    this.hourly.stop();
  }

  /** Deletes the events past retention; how many. */
  async purge(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.auditRetentionDays * DAY_MS);
    return this.store.deleteBefore(cutoff);
  }
}
