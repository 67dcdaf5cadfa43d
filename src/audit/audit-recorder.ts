import { Injectable, Logger } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { AuditEventEntity, WebhookDeliveryEntity } from '../database/entities';
import { AtomicWriter, Insert, RequiredUpdate } from '../database/atomic-writer';
import { newWebhookDeliveryRow } from '../webhooks/webhook-delivery-row';
import { NewAuditEvent, toAuditEvent, toAuditEventRow } from './audit-event';

/**
 * Writes audit events, each with one webhook delivery row per WEBHOOK_URLS entry (the webhook
 * outbox), all in one transaction: no event without its deliveries, no delivery without its event.
 * A change in our database is written in the same transaction as its event (`record` with the
 * change's rows and its compare-and-set). A change in the identity store cannot join a database
 * transaction: its event is recorded right after the store confirmed it (`recordAfterIdentityChange`).
 */
@Injectable()
export class AuditRecorder {
  private readonly logger = new Logger(AuditRecorder.name);

  constructor(
    private readonly writer: AtomicWriter,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly config: AppConfig,
  ) {}

  /**
   * Writes the event and its deliveries, with the change's rows, all or none (AtomicWriter). With
   * `onlyIf`, only if that update changes its row: false, and nothing written, when it does not.
   */
  record(event: NewAuditEvent, change: Insert[] = [], onlyIf?: RequiredUpdate): Promise<boolean> {
    return this.writer.insert([...change, ...this.rowsOf(event)], onlyIf);
  }

  /** The event's row and its webhook deliveries: for a change that writes several events in one transaction. */
  rowsOf(event: NewAuditEvent): Insert[] {
    const row = toAuditEventRow(this.ids.uuid(), this.clock.now(), event);
    const shown = toAuditEvent(row);
    const deliveries = this.config.webhooks.urls.map((url): Insert => [WebhookDeliveryEntity, newWebhookDeliveryRow(this.ids.uuid(), url, shown)]);
    return [[AuditEventEntity, row], ...deliveries];
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
