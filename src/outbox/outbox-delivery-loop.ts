import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ObjectLiteral } from 'typeorm';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { PollingLoop } from '../common/polling-loop';
import { OutboxConfig } from '../config/mail-config';
import { OutboxRowColumns } from '../database/outbox-row-columns';
import { isMissingTable } from '../database/missing-table';
import { OutboxRows } from '../database/outbox-rows';

/**
 * What one attempt came to: delivered, worth another attempt, or failed for good; or not made at
 * all for now (`deferred`): the row waits `delayMs`, and the attempt is not counted.
 */
export type AttemptResult =
  | { outcome: 'delivered' }
  | { outcome: 'retry' | 'failed'; reason: string }
  | { outcome: 'deferred'; reason: string; delayMs: number };

/** What the loop made of an attempt: the row is done, put back for later, or given up. */
type Settlement = 'delivered' | 'retried' | 'failed';

/** How the log lines name the outbox and what it holds. */
interface OutboxNames {
  /** The logger's context. */
  context: string;
  outbox: string;
  /** What waits in it while the database is down. */
  waiting: string;
  /** One row, as named before its id. */
  row: string;
}

/** What makes the loop one outbox's: its table, how a row is sent and named, and its settings. */
export interface OutboxDelivery<E extends OutboxRowColumns & ObjectLiteral> {
  rows: OutboxRows<E>;
  /**
   * Makes one attempt at a claimed row, at `now`. It answers rather than throws: a throw is taken
   * as the database failing, and the row is sent again once the database answers.
   */
  send(row: E, now: Date): Promise<AttemptResult>;
  /** The row as log lines name it: never a secret (a token, a receiver's URL path). */
  subject(row: E): string;
  /** Told of each settlement before it is recorded, e.g. to count it. */
  settled?(settlement: Settlement): void;
  /**
   * How often the loop polls and how it retries: the e-mail outbox's settings, or the webhooks' (a
   * wider shape). A `maxAttempts` of Infinity retries without end: only a `failed` answer gives up.
   */
  schedule: OutboxConfig;
  /** Rows claimed per round; a full round that took rows up is followed at once by another. */
  batchSize: number;
  /** How long a claim holds: well past the longest send, so that a live worker keeps its row. */
  claimMs: number;
  /** How long delivered rows are kept for operators before they are deleted. */
  keepDoneMs: number;
  /** How long shutdown waits for the round in progress, and what it logs when that was not enough. */
  shutdown: { waitMs: number; warning: string };
  names: OutboxNames;
  clock: Clock;
}

const PURGE_EVERY_MS = 60 * 60 * 1_000;

/**
 * Delivers an outbox in the background of every instance: every `pollIntervalMs`, and at once when
 * kicked. Each round claims the rows that are due (a compare-and-set each, so that of several
 * workers exactly one sends a row), sends them side by side through `send`, and records each
 * answer: delivered; retried with exponential backoff up to `maxAttempts`, then failed; or failed
 * at once. Once an hour it deletes the rows delivered more than `keepDoneMs` ago. Each outbox's
 * worker extends it, as the provider that its module starts and stops.
 *
 * Delivery is exactly once while instances live, and at least once when one dies between the send
 * and recording it: after the claim lapses, another instance sends the row again.
 */
export abstract class OutboxDeliveryLoop<E extends OutboxRowColumns & ObjectLiteral>
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  /** Unique per process and per app instance: claims are made in this name. */
  readonly workerId = `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  protected readonly rows: OutboxRows<E>;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly loop: PollingLoop;
  private storeDown = false;
  private lastPurge = 0;
  /**
   * Delivered, but the database failed while it was recorded: recorded first thing next round, and
   * never claimed again by this worker meanwhile (the row is still its own), so never sent twice.
   */
  private readonly deliveredUnrecorded = new Map<string, Date>();
  /** Rows this worker is sending now: its own claims on any others are left over from a failure. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly delivery: OutboxDelivery<E>) {
    this.rows = delivery.rows;
    this.clock = delivery.clock;
    this.logger = new Logger(delivery.names.context);
    this.loop = new PollingLoop(() => this.deliverDue(), delivery.schedule.pollIntervalMs);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /**
   * Stops polling and waits, for a bounded time, for the round in progress. Runs after the HTTP
   * server has closed and before the database is (TypeORM's global module shuts down last).
   * A row left claimed is taken over by another instance once its claim lapses.
   */
  async onApplicationShutdown(): Promise<void> {
    const { waitMs, warning } = this.delivery.shutdown;
    if (!(await this.loop.stop(waitMs))) this.logger.warn(warning);
  }

  /** Looks for work now rather than at the next poll. */
  kick(): void {
    this.loop.kick();
  }

  /**
   * One round: claims what is due and sends it. True when it found a full batch and took some of
   * it up, so that more may be waiting. A batch that held only rows this worker is sending already
   * (writeAndSend's, which every read finds again) says false: another round at once would read
   * the same rows and spin. The loop calls it; unit tests call it on a worker that was never started.
   */
  async deliverDue(): Promise<boolean> {
    const { batchSize } = this.delivery;
    try {
      await this.recordDelivered();
      await this.purge();
      const ids = await this.rows.due(this.workerId, this.clock.now(), batchSize);
      const outcomes = await Promise.all(ids.map((id) => this.deliver(id)));
      if (!outcomes.includes('database failed')) this.storeBack();
      return ids.length === batchSize && outcomes.includes('attempted');
    } catch (error) {
      this.storeFailed(error);
      return false;
    }
  }

  /** Claims, sends and records one row, unless this worker has it on its way already or another worker claims it. */
  private async deliver(id: string): Promise<'attempted' | 'left' | 'database failed'> {
    if (this.inFlight.has(id) || this.deliveredUnrecorded.has(id)) return 'left';
    this.inFlight.add(id);
    try {
      const now = this.clock.now();
      const row = await this.rows.claim(id, this.workerId, now, new Date(now.getTime() + this.delivery.claimMs));
      if (!row) return 'left'; // another worker has it
      await this.sendHeld(row);
      return 'attempted';
    } catch (error) {
      this.storeFailed(error);
      return 'database failed';
    } finally {
      this.inFlight.delete(id);
    }
  }

  /**
   * Writes a new row that this worker claims from the start (`write`: the transaction that inserts
   * it; false when it wrote nothing), then makes its first attempt at once rather than at the next
   * round. Null when nothing was written; else whether the row was delivered. Rounds leave the row
   * alone meanwhile, so that they never send it too; when the attempt fails, they retry it as any
   * other. Throws only what `write` throws: a database that fails after the commit is logged, and
   * the row is taken up again next round (its claim is this worker's).
   */
  protected async writeAndSend(row: E, write: () => Promise<boolean>): Promise<boolean | null> {
    this.inFlight.add(row.id);
    try {
      if (!(await write())) return null;
      let result: AttemptResult | undefined;
      try {
        result = await this.sendHeld(row);
      } catch (error) {
        this.storeFailed(error);
      }
      return result?.outcome === 'delivered' || this.deliveredUnrecorded.has(row.id);
    } finally {
      this.inFlight.delete(row.id);
    }
  }

  /** Sends a row this worker holds and records the answer; throws when the database fails. */
  private async sendHeld(row: E): Promise<AttemptResult> {
    const result = await this.delivery.send(row, this.clock.now());
    if (!(await this.record(row, result))) {
      this.logger.warn(
        `${this.delivery.subject(row)}: the claim on ${this.delivery.names.row} ${row.id} lapsed before it was released`,
      );
    }
    return result;
  }

  /** Records the attempt and releases the claim; false when the claim had lapsed. */
  private async record(row: E, result: AttemptResult): Promise<boolean> {
    const { maxAttempts, retryBaseMs, retryMaxMs } = this.delivery.schedule;
    if (result.outcome === 'delivered') {
      this.delivery.settled?.('delivered');
      return this.markDelivered(row.id);
    }
    if (result.outcome === 'deferred') {
      this.logger.debug(
        `${this.delivery.subject(row)} deferred: ${result.reason} (not counted as an attempt; next in ${seconds(result.delayMs)})`,
      );
      return this.rows.defer(
        row.id,
        this.workerId,
        new Date(this.clock.now().getTime() + result.delayMs),
        result.reason,
      );
    }
    if (result.outcome === 'retry' && row.attempts < maxAttempts) {
      this.delivery.settled?.('retried');
      const delayMs = backoffMs(row.attempts, retryBaseMs, retryMaxMs);
      const attempt = Number.isFinite(maxAttempts) ? `${row.attempts} of ${maxAttempts}` : row.attempts;
      this.logger.warn(
        `${this.delivery.subject(row)} failed: ${result.reason} (attempt ${attempt}; next in ${seconds(delayMs)})`,
      );
      return this.rows.retryLater(row.id, this.workerId, new Date(this.clock.now().getTime() + delayMs), result.reason);
    }
    this.delivery.settled?.('failed');
    this.logger.error(
      `${this.delivery.subject(row)} failed: ${result.reason}; given up after ${row.attempts} ` +
        `attempt(s), ${this.delivery.names.row} ${row.id} is marked failed`,
    );
    return this.rows.markFailed(row.id, this.workerId, result.reason);
  }

  /**
   * Marks the row delivered; when the database fails, keeps the delivery to record it next round.
   * It is kept only once the write has failed, so that a round running meanwhile never records it
   * while the write is still under way.
   */
  private async markDelivered(id: string): Promise<boolean> {
    const at = this.clock.now();
    try {
      return await this.rows.markDone(id, this.workerId, at);
    } catch (error) {
      this.deliveredUnrecorded.set(id, at);
      throw error;
    }
  }

  private async recordDelivered(): Promise<void> {
    for (const [id, at] of this.deliveredUnrecorded) {
      await this.rows.markDone(id, this.workerId, at);
      this.deliveredUnrecorded.delete(id);
    }
  }

  private async purge(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await this.rows.purgeDone(new Date(now - this.delivery.keepDoneMs));
  }

  /** Logs once per outage, not once per poll. */
  private storeFailed(error: unknown): void {
    if (this.storeDown) return;
    this.storeDown = true;
    const { outbox, waiting } = this.delivery.names;
    if (isMissingTable(error)) {
      // Migrations pending: readiness says so too, and a deploy runs them next.
      this.logger.warn(`${outbox} not created yet (${messageOf(error)}): ${waiting} wait until migrations have run`);
      return;
    }
    this.logger.error(`${outbox} unavailable (${messageOf(error)}): ${waiting} wait until the database is back`);
  }

  private storeBack(): void {
    if (!this.storeDown) return;
    this.storeDown = false;
    this.logger.log(`${this.delivery.names.outbox} available again: delivering`);
  }
}

/** The delay before retry number `attempts` (1 = after the first failure): doubling from `baseMs`, up to `maxMs`. */
export const backoffMs = (attempts: number, baseMs: number, maxMs: number): number =>
  Math.min(baseMs * 2 ** (attempts - 1), maxMs);

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;
