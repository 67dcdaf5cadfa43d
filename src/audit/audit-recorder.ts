import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { AuditEventEntity, WebhookDeliveryEntity } from '../database/entities';
import { Insert, insertAtomically } from '../database/insert-atomically';
import { newWebhookDeliveryRow } from '../webhooks/webhook-delivery-row';
import { NewAuditEvent, toAuditEvent, toAuditEventRow } from './audit-event';

/**
 * Writes audit events, each with one webhook delivery row per WEBHOOK_URLS entry (the webhook
 * outbox), all in one transaction: no event without its deliveries, no delivery without its event.
 * A change in our database records them in its own transaction: `rows()` for insertAtomically
 * (with or without its compare-and-set), or `record(event, manager)` inside a TypeORM transaction. A change in the identity store cannot join a database transaction: its event is
 * recorded right after the store confirmed it (`recordAfterIdentityChange`).
 */
@Injectable()
export class AuditRecorder {
  private readonly logger = new Logger(AuditRecorder.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly config: AppConfig,
  ) {}

  /** The event's row and its webhook deliveries, to insert in the transaction of the change. */
  rows(event: NewAuditEvent): Insert[] {
    const row = toAuditEventRow(this.ids.uuid(), this.clock.now(), event);
    const shown = toAuditEvent(row);
    const deliveries = this.config.webhooks.urls.map((url): Insert => [WebhookDeliveryEntity, newWebhookDeliveryRow(this.ids.uuid(), url, shown)]);
    return [[AuditEventEntity, row], ...deliveries];
  }

  /** Inserts the event and its deliveries through `manager` (the transaction's, so that they commit with the change), or in a transaction of their own. */
  async record(event: NewAuditEvent, manager?: EntityManager): Promise<void> {
    const rows = this.rows(event);
    if (!manager) {
      await insertAtomically(this.dataSource, rows);
      return;
    }
    for (const [target, values] of rows) await manager.insert(target, values);
  }

  /**
   * After a change that the identity store has made: the change stands whatever happens here, so
   * a failure to record is logged rather than turned into a failure of the request.
   */
  async recordAfterIdentityChange(event: NewAuditEvent): Promise<void> {
    try {
      await this.record(event);
    } catch (error) {
      this.logger.error(`Recording the audit event ${event.type} failed after the identity store changed: ${messageOf(error)}`);
    }
  }
}
