import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { routePatternOf } from '../common/route-pattern';
import { withTimeout } from '../common/with-timeout';

export type InvitationEmailResult = 'sent' | 'failed';
/** An attempt that reached its receiver, one that will be tried again, one given up (or refused). */
export type WebhookDeliveryOutcome = 'delivered' | 'retried' | 'failed';

/** How long a scrape waits for the database to read the webhook backlog. */
const BACKLOG_READ_TIMEOUT_MS = 1_000;

let processRegistry: Registry | undefined;

/** CPU, memory, event loop and GC belong to the process, not to one app instance: collected once. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The service's Prometheus metrics. Each app instance has its own registry (never prom-client's
 * global one), so that several instances in one process, as in the e2e suites, count apart.
 */
@Injectable()
export class Metrics {
  private readonly registry = new Registry();

  private readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [this.registry],
  });

  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response, by method, route pattern and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly invitationsCreated = this.counter(
    'invitations_created_total',
    'Invitations created (POST /api/org/invite)',
  );
  private readonly invitationsAccepted = this.counter(
    'invitations_accepted_total',
    'Invitations accepted (POST /api/invitations/{token})',
  );
  private readonly invitationsExpired = this.counter(
    'invitations_expired_total',
    'Pending invitations stored as expired when read after expiresAt (GET /api/invitations/{token})',
  );

  private readonly invitationEmails = new Counter({
    name: 'invitation_emails_total',
    help: 'Invitation e-mails by result: sent or failed',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  private readonly rateLimitedInvites = this.counter(
    'invite_rate_limited_total',
    'Invitation requests refused by the per-user rate limit (429)',
  );

  private readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), retried (to be tried again) or failed (given up or refused)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly logLinesDropped = this.counter(
    'log_lines_dropped_total',
    'Log lines dropped because stdout was not read: its buffer of unwritten lines was full',
  );

  /** Reads the age of the oldest waiting delivery from the database at each scrape; 0 until the worker supplies it. */
  private webhookBacklogAge: () => Promise<number> = async () => 0;

  private readonly oldestPendingWebhook = new Gauge({
    name: 'webhook_oldest_pending_delivery_age_seconds',
    help: 'Age in seconds of the oldest webhook delivery not yet delivered nor failed (0 when none waits)',
    registers: [this.registry],
    collect: async () => {
      try {
        this.oldestPendingWebhook.set(await withTimeout(this.webhookBacklogAge(), BACKLOG_READ_TIMEOUT_MS));
      } catch {
        // The database is away or slow: the scrape keeps the last value rather than failing or hanging.
      }
    },
  });

  constructor() {
    // Every result is exported from the start, so that a rate over them is defined before the first failure.
    for (const result of ['sent', 'failed'] as const) this.invitationEmails.inc({ result }, 0);
    for (const outcome of ['delivered', 'retried', 'failed'] as const) this.webhookDeliveries.inc({ outcome }, 0);
  }

  /** A counter without labels in this instance's registry; field initialisers call it, after `registry`. */
  private counter(name: string, help: string): Counter {
    return new Counter({ name, help, registers: [this.registry] });
  }

  invitationCreated(): void {
    this.invitationsCreated.inc();
  }

  invitationAccepted(): void {
    this.invitationsAccepted.inc();
  }

  invitationExpired(): void {
    this.invitationsExpired.inc();
  }

  invitationEmail(result: InvitationEmailResult): void {
    this.invitationEmails.inc({ result });
  }

  inviteRateLimited(): void {
    this.rateLimitedInvites.inc();
  }

  webhookDelivery(outcome: WebhookDeliveryOutcome): void {
    this.webhookDeliveries.inc({ outcome });
  }

  logLineDropped(): void {
    this.logLinesDropped.inc();
  }

  /** Where the gauge of the oldest waiting webhook delivery reads its age, in seconds (the webhook worker). */
  measureWebhookBacklog(ageSeconds: () => Promise<number>): void {
    this.webhookBacklogAge = ageSeconds;
  }

  /** Times every request to its finished response, labelled by route pattern, never by raw URL. */
  httpMiddleware(): RequestHandler {
    return (request: Request, response: Response, next: NextFunction) => {
      const started = process.hrtime.bigint();
      response.once('finish', () => {
        const labels = { method: request.method, route: routePatternOf(request), status_code: response.statusCode };
        this.httpRequests.inc(labels);
        this.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      });
      next();
    };
  }

  /** The Prometheus text exposition of this instance's metrics and the process's. */
  async scrape(): Promise<string> {
    return Registry.merge([processMetrics(), this.registry]).metrics();
  }
}
