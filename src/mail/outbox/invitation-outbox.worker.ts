import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { messageOf } from '../../common/api-error';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { InvitationEmailOutboxEntity } from '../../database/entities';
import { MultiStatementPool } from '../../database/multi-statement-pool';
import { OutboxRows } from '../../database/outbox-rows';
import { PreparedStatements } from '../../database/prepared-statements';
import { TenantStatusReader } from '../../database/tenant-status-reader';
import { Metrics } from '../../metrics/metrics';
import { AttemptResult, OutboxDeliveryLoop } from '../../outbox/outbox-delivery-loop';
import { InvitationMailer } from '../invitation-mailer';
import { storedEmailOf } from './invitation-outbox';

/** Rows claimed per round; a full round is followed at once by another. */
export const OUTBOX_BATCH_SIZE = 10;
/** How long a claim holds: well past the longest send (SEND_TIMEOUT_MS), so a live worker keeps its row. */
export const OUTBOX_CLAIM_MS = 120_000;
/** Sent rows are kept this long for operators, then deleted. */
export const OUTBOX_KEEP_SENT_MS = 7 * 24 * 60 * 60 * 1_000;
/** How long shutdown waits for the round in progress (its sends are bounded by the SMTP timeouts). */
export const OUTBOX_SHUTDOWN_WAIT_MS = 10_000;

/**
 * Delivers the invitation e-mail outbox through InvitationMailer, in the background of every
 * instance: every OUTBOX_POLL_INTERVAL_MS, and at once when this instance has just created an
 * invitation (`kick`). A failed send is retried with exponential backoff, up to
 * OUTBOX_MAX_ATTEMPTS, then the row is marked failed; so is the e-mail of an invitation that
 * expired first, or whose tenant was deleted. The e-mails of a suspended tenant wait, without using
 * up attempts: they are looked at again every OUTBOX_RETRY_MAX_MS, and reactivation makes them due
 * at once (TenantsStore.releaseHeldEmails). Log lines never carry the invitation token: it is in the link, and whoever holds
 * it can accept the invitation.
 */
@Injectable()
export class InvitationOutboxWorker extends OutboxDeliveryLoop<InvitationEmailOutboxEntity> {
  constructor(
    dataSource: DataSource,
    statements: PreparedStatements,
    pool: MultiStatementPool,
    mailer: InvitationMailer,
    tenants: TenantStatusReader,
    clock: Clock,
    config: AppConfig,
    metrics: Metrics,
  ) {
    super({
      rows: new OutboxRows(dataSource, statements, pool, InvitationEmailOutboxEntity, {
        status: 'sent',
        atColumn: 'sent_at',
      }),
      send: (row, now) => sendEmail(row, now, mailer, metrics, tenants, config.outbox.retryMaxMs),
      subject: (row) => {
        const { tenantId, email } = storedEmailOf(row);
        return `Invitation e-mail to ${email.to} for tenant ${tenantId}`;
      },
      schedule: config.outbox,
      batchSize: OUTBOX_BATCH_SIZE,
      claimMs: OUTBOX_CLAIM_MS,
      keepDoneMs: OUTBOX_KEEP_SENT_MS,
      shutdown: {
        waitMs: OUTBOX_SHUTDOWN_WAIT_MS,
        warning: 'Shutting down with invitation e-mails still being sent: another instance will retry them',
      },
      names: { context: 'InvitationOutbox', outbox: 'Invitation e-mail outbox', waiting: 'e-mails', row: 'outbox row' },
      clock,
    });
  }
}

/**
 * One attempt at the row's e-mail; an e-mail whose invitation has expired, or whose tenant was
 * deleted, is not sent, and one of a suspended tenant waits `heldMs`.
 */
async function sendEmail(
  row: InvitationEmailOutboxEntity,
  now: Date,
  mailer: InvitationMailer,
  metrics: Metrics,
  tenants: TenantStatusReader,
  heldMs: number,
): Promise<AttemptResult> {
  const { tenantId, email } = storedEmailOf(row);
  if (email.expiresAt.getTime() < now.getTime()) {
    return { outcome: 'failed', reason: 'the invitation expired before the e-mail could be delivered' };
  }
  const status = await tenants.statusOfShared(tenantId);
  if (status === 'suspended') return { outcome: 'deferred', reason: 'the organisation is suspended', delayMs: heldMs };
  if (status === 'deleted')
    return { outcome: 'failed', reason: 'the organisation was deleted before the e-mail could be delivered' };
  try {
    await mailer.send(email);
  } catch (error) {
    // Counted per failed attempt, so that a mail server outage shows at once, not after the retries.
    metrics.invitationEmail('failed');
    return { outcome: 'retry', reason: masked(messageOf(error), row.invitationId) };
  }
  metrics.invitationEmail('sent');
  return { outcome: 'delivered' };
}

/** The token masked wherever it appears, as in an SMTP error that quotes the message. */
const masked = (text: string, token: string) => text.replaceAll(token, '<token>');
