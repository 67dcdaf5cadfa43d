import { WebhookDeliveryEntity } from '../database/entities';
import { AuditEvent } from './audit-event';

/** The body of every webhook (Standard Webhooks): the event's type, when it happened, and the event as the audit API shows it. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: AuditEvent;
}

export const webhookPayload = (event: AuditEvent): WebhookPayload => ({
  type: event.type,
  timestamp: event.occurredAt,
  data: event,
});

/**
 * The row that sends `event` to `url`, due at once. The audit recorder writes one per configured
 * URL in the transaction of the event. The body is fixed here, so that every attempt sends (and
 * signs) the same bytes.
 */
export function newWebhookDeliveryRow(id: string, url: string, event: AuditEvent): WebhookDeliveryEntity {
  const createdAt = new Date(event.occurredAt);
  return {
    id,
    eventId: event.id,
    url,
    payload: JSON.stringify(webhookPayload(event)),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: createdAt,
    claimedBy: null,
    claimedUntil: null,
    lastError: null,
    createdAt,
    deliveredAt: null,
  };
}
