import { Module } from '@nestjs/common';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookSender } from './webhook-sender';

/**
 * Delivers the webhook outbox that AuditRows fills: the server's, not the operator CLI's
 * (the CLI's events are written with their deliveries, and a server sends them).
 */
@Module({ providers: [WebhookSender, WebhookDeliveryWorker] })
export class WebhooksModule {}
