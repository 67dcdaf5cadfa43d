import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { WebhookDeliveryEntity } from '../database/entities';
import { MultiStatementPool } from '../database/multi-statement-pool';
import { OutboxRows } from '../database/outbox-rows';
import { PreparedStatements } from '../database/prepared-statements';
import { Metrics } from '../metrics/metrics';
import { OutboxDeliveryLoop } from '../outbox/outbox-delivery-loop';
import { WebhookSender } from './webhook-sender';

/** Deliveries claimed per round; a full round is followed at once by another. */
export const WEBHOOK_BATCH_SIZE = 10;
/** How long a claim holds: well past the longest attempt (WEBHOOK_TIMEOUT_MS is at most 30 s), so a live worker keeps its row. */
export const WEBHOOK_CLAIM_MS = 60_000;
/** Delivered rows are kept this long for operators, then deleted. */
export const WEBHOOK_KEEP_DELIVERED_MS = 7 * 24 * 60 * 60 * 1_000;

/**
 * Delivers the webhook outbox (webhook_deliveries, written with each audit event) in the
 * background of every instance, every WEBHOOK_POLL_INTERVAL_MS: an API request never waits on a
 * receiver. A timeout, a connection error, a 408, 429 or 5xx is retried with exponential backoff
 * up to WEBHOOK_MAX_ATTEMPTS, then the row is failed; any other non-2xx answer, and a refused
 * address, fails it at once. A delivery sent again (its instance died before recording it)
 * carries the same `webhook-id`, by which receivers tell a repeat.
 */
@Injectable()
export class WebhookDeliveryWorker extends OutboxDeliveryLoop<WebhookDeliveryEntity> {
  constructor(
    dataSource: DataSource,
    statements: PreparedStatements,
    pool: MultiStatementPool,
    sender: WebhookSender,
    clock: Clock,
    private readonly config: AppConfig,
    metrics: Metrics,
  ) {
    super({
      rows: new OutboxRows(dataSource, statements, pool, WebhookDeliveryEntity, {
        status: 'delivered',
        atColumn: 'delivered_at',
      }),
      send: (row, now) => sender.send(row, now),
      // The receiver by host only: a URL's path or query may carry a receiver's own secret.
      subject: (row) => `Webhook ${row.eventId} to ${new URL(row.url).host}`,
      settled: (settlement) => metrics.webhookDelivery(settlement),
      schedule: config.webhooks,
      batchSize: WEBHOOK_BATCH_SIZE,
      claimMs: WEBHOOK_CLAIM_MS,
      keepDoneMs: WEBHOOK_KEEP_DELIVERED_MS,
      // Bounded by one attempt's timeout.
      shutdown: {
        waitMs: config.webhooks.timeoutMs + 1_000,
        warning: 'Shutting down with webhooks still being sent: they are retried once their claim lapses',
      },
      names: { context: 'Webhooks', outbox: 'Webhook outbox', waiting: 'webhooks', row: 'delivery' },
      clock,
    });
    metrics.measureWebhookBacklog(async () => {
      const oldest = await this.rows.oldestWaiting();
      return oldest ? Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1_000) : 0;
    });
  }

  /** Runs only with a signing secret: without one (webhooks off) there is nothing to sign with. */
  override onApplicationBootstrap(): void {
    if (this.config.webhooks.secret !== undefined) super.onApplicationBootstrap();
  }
}
