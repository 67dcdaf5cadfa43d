import { Column, Entity } from 'typeorm';
import { IdColumn, TimestampColumn, VarcharColumn } from '../columns';
import { OutboxColumns } from '../outbox-rows';

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

/**
 * One audit event to send to one webhook URL, written in the transaction that records the event,
 * so that an event is never lost and never sent for a change that did not commit.
 */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity implements OutboxColumns {
  @IdColumn()
  id: string;

  /** The audit event's id: the `webhook-id` header, the same on every attempt and every URL. */
  @VarcharColumn(36, { name: 'event_id' })
  eventId: string;

  @VarcharColumn(2048)
  url: string;

  /** The request body, exactly as signed: `{type, timestamp, data}` (Standard Webhooks). */
  @Column({ type: 'text' })
  payload: string;

  @VarcharColumn(16)
  status: WebhookDeliveryStatus;

  /** Delivery attempts started so far. */
  @Column({ type: 'int' })
  attempts: number;

  @TimestampColumn('next_attempt_at')
  nextAttemptAt: Date;

  /** The worker that holds the row while its status is `sending`. */
  @VarcharColumn(100, { name: 'claimed_by', nullable: true })
  claimedBy: string | null;

  /** When the claim lapses: a row still `sending` after it belongs to a worker that died. */
  @TimestampColumn('claimed_until', { nullable: true })
  claimedUntil: Date | null;

  /** Why the last attempt failed: the status answered, a timeout, a connection error, a refused address. */
  @VarcharColumn(1000, { name: 'last_error', nullable: true })
  lastError: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('delivered_at', { nullable: true })
  deliveredAt: Date | null;
}
