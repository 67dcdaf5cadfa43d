import { Column, Entity } from 'typeorm';
import { TimestampColumn, VarcharColumn } from '../columns';
import { OutboxRowColumns } from '../outbox-row-columns';

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

/**
 * One audit event to send to one webhook URL, written in the transaction that records the event,
 * so that an event is never lost and never sent for a change that did not commit. `lastError`
 * holds the status answered, a timeout, a connection error or a refused address.
 */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity extends OutboxRowColumns<WebhookDeliveryStatus> {
  /** The audit event's id: the `webhook-id` header, the same on every attempt and every URL. */
  @VarcharColumn(36, { name: 'event_id' })
  eventId: string;

  @VarcharColumn(2048)
  url: string;

  /** The request body, exactly as signed: `{type, timestamp, data}` (Standard Webhooks). */
  @Column({ type: 'text' })
  payload: string;

  @TimestampColumn('delivered_at', { nullable: true })
  deliveredAt: Date | null;
}
