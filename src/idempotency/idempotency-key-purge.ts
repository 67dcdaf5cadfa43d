import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { PeriodicTask } from '../common/periodic-task';
import { IDEMPOTENCY_KEY_TTL_MS } from './idempotency.guard';
import { IdempotencyStore } from './idempotency.store';

const PURGE_EVERY_MS = 60 * 60 * 1_000;
/** The first purge waits until start-up is over. */
const FIRST_PURGE_AFTER_MS = 60 * 1_000;

/**
 * Deletes the Idempotency-Keys older than 24 hours, hourly, on every instance, as the audit
 * retention does: a delete by age needs no coordination (two at once delete the same rows, the
 * second finds none). Until then, IdempotencyGuard treats an older key as absent.
 */
@Injectable()
export class IdempotencyKeyPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private readonly hourly = new PeriodicTask(
    async () => {
      const deleted = await this.purge();
      if (deleted) this.logger.log(`Deleted ${deleted} Idempotency-Key(s) older than 24 hours`);
    },
    (error) => this.logger.error(`Purging old Idempotency-Keys failed: ${messageOf(error)}`),
  );

  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.hourly.start(FIRST_PURGE_AFTER_MS, PURGE_EVERY_MS);
  }

  onApplicationShutdown(): void {
    this.hourly.stop();
  }

  /** Deletes the keys past 24 hours; how many. */
  async purge(): Promise<number> {
    return this.store.deleteCreatedBefore(new Date(this.clock.now().getTime() - IDEMPOTENCY_KEY_TTL_MS));
  }
}
