import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { Insert } from '../database/atomic-writer';
import { AuditEventEntity, WebhookDeliveryEntity } from '../database/entities';
import { newWebhookDeliveryRow } from './webhook-delivery-row';
import { NewAuditEvent, toAuditEvent, toAuditEventRow } from './audit-event';

/**
 * The rows that an audit event is: its own, and one webhook delivery per WEBHOOK_URLS entry (the
 * webhook outbox). A store writes them in the transaction of the change they record (AtomicWriter),
 * so that there is no change without its event, no event without its deliveries.
 */
@Injectable()
export class AuditRows {
  constructor(
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly config: AppConfig,
  ) {}

  of(event: NewAuditEvent): Insert[] {
    const row = toAuditEventRow(this.ids.uuid(), this.clock.now(), event);
    const shown = toAuditEvent(row);
    const deliveries = this.config.webhooks.urls.map((url): Insert => [
      WebhookDeliveryEntity,
      newWebhookDeliveryRow(this.ids.uuid(), url, shown),
    ]);
    return [[AuditEventEntity, row], ...deliveries];
  }
}
