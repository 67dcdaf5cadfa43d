import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { PollingLoop } from '../common/polling-loop';
import { AppConfig } from '../config/app-config';
import { WebhookDeliveryEntity } from '../database/entities';
import { MultiStatementPool } from '../database/multi-statement-pool';
import { backoffMs, OutboxRows } from '../database/outbox-rows';
import { PreparedStatements } from '../database/prepared-statements';
import { Metrics } from '../metrics/metrics';
import { AttemptResult, WebhookSender } from './webhook-sender';

/** Deliveries claimed per round; a full round is followed at once by another. */
export const WEBHOOK_BATCH_SIZE = 10;
/** How long a claim holds: well past the longest attempt (WEBHOOK_TIMEOUT_MS is at most 30 s), so a live worker keeps its row. */
export const WEBHOOK_CLAIM_MS = 60_000;
/** Delivered rows are kept this long for operators, then deleted. */
export const WEBHOOK_KEEP_DELIVERED_MS = 7 * 24 * 60 * 60 * 1_000;
const PURGE_EVERY_MS = 60 * 60 * 1_000;

/**
 * Delivers the webhook outbox (webhook_deliveries, written with each audit event) in the
 * background of every instance, every WEBHOOK_POLL_INTERVAL_MS: an API request never waits on a
 * receiver. Each row is claimed with a compare-and-set, so that several instances never send one
 * delivery at the same time. A timeout, a connection error, a 408, 429 or 5xx is retried with
 * exponential backoff up to WEBHOOK_MAX_ATTEMPTS, then the row is failed; any other non-2xx
 * answer, and a refused address, fails it at once.
 *
 * Exactly once while instances live, at least once when one dies between the receiver's answer
 * and recording it: after the claim lapses, another instance sends it again, with the same
 * `webhook-id`, by which receivers tell a repeat.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Unique per process and per app instance: claims are made in this name. */
  readonly workerId = `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  private readonly logger = new Logger('Webhooks');
  private readonly rows: OutboxRows<WebhookDeliveryEntity>;
  private readonly loop: PollingLoop;
  private storeDown = false;
  private lastPurge = 0;
  /** Delivered, but the database failed before it was recorded: recorded first thing next round. */
  private readonly deliveredUnrecorded = new Map<string, Date>();
  /** Rows this worker is sending now: its own claims on any others are left over from a failure. */
  private readonly inFlight = new Set<string>();

  constructor(
    dataSource: DataSource,
    statements: PreparedStatements,
    pool: MultiStatementPool,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.rows = new OutboxRows(dataSource, statements, pool, WebhookDeliveryEntity, { status: 'delivered', atColumn: 'delivered_at' });
    this.loop = new PollingLoop(() => this.deliverDue(), config.webhooks.pollIntervalMs);
    metrics.measureWebhookBacklog(async () => {
      const oldest = await this.rows.oldestWaiting();
      return oldest ? Math.max(0, (this.clock.now().getTime() - oldest.getTime()) / 1_000) : 0;
    });
  }

  /** Runs only with a signing secret: without one (webhooks off) there is nothing to sign with. */
  onApplicationBootstrap(): void {
    if (this.config.webhooks.secret !== undefined) this.loop.start();
  }

  /**
   * Stops polling and waits for the round in progress, bounded by one attempt's timeout. Runs
   * after the HTTP server has closed and before the database is. A row left claimed is taken
   * over by another instance (or this one, restarted) once its claim lapses.
   */
  async onApplicationShutdown(): Promise<void> {
    if (!(await this.loop.stop(this.config.webhooks.timeoutMs + 1_000))) {
      this.logger.warn('Shutting down with webhooks still being sent: they are retried once their claim lapses');
    }
  }

  /**
   * One round: claims what is due and sends it. True when it found a full batch, so that more
   * may be waiting. The loop calls it; tests may call it on a worker that was never started.
   */
  async deliverDue(): Promise<boolean> {
    try {
      await this.recordDelivered();
      await this.purge();
      const ids = await this.rows.due(this.workerId, this.clock.now(), WEBHOOK_BATCH_SIZE);
      const results = await Promise.all(ids.map((id) => this.deliver(id)));
      if (results.every(Boolean)) this.storeBack();
      return ids.length === WEBHOOK_BATCH_SIZE;
    } catch (error) {
      this.storeFailed(error);
      return false;
    }
  }

  /** Claims and sends one row; false when the database failed on the way (already logged). */
  private async deliver(id: string): Promise<boolean> {
    if (this.inFlight.has(id) || this.deliveredUnrecorded.has(id)) return true;
    this.inFlight.add(id);
    try {
      const now = this.clock.now();
      const row = await this.rows.claim(id, this.workerId, now, new Date(now.getTime() + WEBHOOK_CLAIM_MS));
      if (!row) return true; // another worker has it
      const result = await this.sender.send(row, this.clock.now());
      return await this.record(row, result);
    } catch (error) {
      this.storeFailed(error);
      return false;
    } finally {
      this.inFlight.delete(id);
    }
  }

  private async record(row: WebhookDeliveryEntity, result: AttemptResult): Promise<boolean> {
    const { maxAttempts, retryBaseMs, retryMaxMs } = this.config.webhooks;
    let held: boolean;
    if (result.outcome === 'delivered') {
      this.metrics.webhookDelivery('delivered');
      const at = this.clock.now();
      this.deliveredUnrecorded.set(row.id, at);
      held = await this.rows.markDone(row.id, this.workerId, at);
      this.deliveredUnrecorded.delete(row.id);
    } else if (result.outcome === 'retry' && row.attempts < maxAttempts) {
      this.metrics.webhookDelivery('retried');
      const delayMs = backoffMs(row.attempts, retryBaseMs, retryMaxMs);
      this.logger.warn(`${subject(row)} failed: ${result.reason} (attempt ${row.attempts} of ${maxAttempts}; next in ${seconds(delayMs)})`);
      held = await this.rows.retryLater(row.id, this.workerId, new Date(this.clock.now().getTime() + delayMs), result.reason);
    } else {
      this.metrics.webhookDelivery('failed');
      this.logger.error(`${subject(row)} failed: ${result.reason}; given up after ${row.attempts} attempt(s), delivery ${row.id} is marked failed`);
      held = await this.rows.markFailed(row.id, this.workerId, result.reason);
    }
    if (!held) this.logger.warn(`${subject(row)}: the claim on delivery ${row.id} lapsed before it was released`);
    return true;
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
    await this.rows.purgeDone(new Date(now - WEBHOOK_KEEP_DELIVERED_MS));
  }

  /** Logs once per outage, not once per poll. */
  private storeFailed(error: unknown): void {
    if (this.storeDown) return;
    this.storeDown = true;
    this.logger.error(`Webhook outbox unavailable (${messageOf(error)}): webhooks wait until the database is back`);
  }

  private storeBack(): void {
    if (!this.storeDown) return;
    this.storeDown = false;
    this.logger.log('Webhook outbox available again: delivering');
  }
}

/** The receiver by host only: a URL's path or query may carry a receiver's own secret. */
const subject = (row: WebhookDeliveryEntity) => `Webhook ${row.eventId} to ${new URL(row.url).host}`;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;
