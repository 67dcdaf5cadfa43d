import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { messageOf } from './api-error';
import { PeriodicTask } from './periodic-task';

const PURGE_EVERY_MS = 60 * 60 * 1_000;
/** The first purge waits until start-up is over. */
const FIRST_PURGE_AFTER_MS = 60 * 1_000;

/**
 * A purge of rows past their retention, hourly on each instance's timer, from a minute after start-up
 * until shutdown: `purge()` deletes and says how many, `deleted(n)` and `failure` are the log's words.
 */
export abstract class HourlyPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  protected abstract readonly logger: Logger;
  /** The log line after a run that deleted `count` rows. */
  protected abstract deleted(count: number): string;
  /** The log line's start when a run fails. */
  protected abstract readonly failure: string;

  private readonly hourly = new PeriodicTask(
    async () => {
      const count = await this.purge();
      if (count) this.logger.log(this.deleted(count));
    },
    (error) => this.logger.error(`${this.failure}: ${messageOf(error)}`),
  );

  abstract purge(): Promise<number>;

  onApplicationBootstrap(): void {
    this.hourly.start(FIRST_PURGE_AFTER_MS, PURGE_EVERY_MS);
  }

  onApplicationShutdown(): void {
    this.hourly.stop();
  }
}
