import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { messageOf } from '../../common/api-error';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { NoticeEmailOutboxEntity } from '../../database/entities';
import { MultiStatementPool } from '../../database/multi-statement-pool';
import { OutboxRows } from '../../database/outbox-rows';
import { PreparedStatements } from '../../database/prepared-statements';
import { TenantStatusReader } from '../../database/tenant-status-reader';
import { AttemptResult, OutboxDeliveryLoop } from '../../outbox/outbox-delivery-loop';
import { maskedSecret, NoticeMailer, noticeOf } from '../notice-email';
import {
  OUTBOX_BATCH_SIZE,
  OUTBOX_CLAIM_MS,
  OUTBOX_KEEP_SENT_MS,
  OUTBOX_SHUTDOWN_WAIT_MS,
} from './invitation-outbox.worker';

/**
 * Delivers the notice e-mail outbox (src/mail/notice-email.ts) through NoticeMailer, in the
 * background of every instance, with the invitation outbox's settings and retries. A delivered row
 * is deleted at once. The e-mails of a suspended organisation wait, those of a deleted one fail.
 */
@Injectable()
export class NoticeOutboxWorker extends OutboxDeliveryLoop<NoticeEmailOutboxEntity> {
  constructor(
    dataSource: DataSource,
    statements: PreparedStatements,
    pool: MultiStatementPool,
    mailer: NoticeMailer,
    tenants: TenantStatusReader,
    clock: Clock,
    config: AppConfig,
  ) {
    super({
      rows: new OutboxRows(dataSource, statements, pool, NoticeEmailOutboxEntity, 'deleted'),
      send: (row) => sendNotice(row, mailer, tenants, config.outbox.retryMaxMs),
      subject: (row) => `Notice e-mail to ${noticeOf(row).to} for tenant ${row.tenantId}`,
      schedule: config.outbox,
      batchSize: OUTBOX_BATCH_SIZE,
      claimMs: OUTBOX_CLAIM_MS,
      keepDoneMs: OUTBOX_KEEP_SENT_MS,
      shutdown: {
        waitMs: OUTBOX_SHUTDOWN_WAIT_MS,
        warning: 'Shutting down with notice e-mails still being sent: another instance will retry them',
      },
      names: { context: 'NoticeOutbox', outbox: 'Notice e-mail outbox', waiting: 'e-mails', row: 'outbox row' },
      clock,
    });
  }
}

async function sendNotice(
  row: NoticeEmailOutboxEntity,
  mailer: NoticeMailer,
  tenants: TenantStatusReader,
  heldMs: number,
): Promise<AttemptResult> {
  const email = noticeOf(row);
  const status = await tenants.statusOfShared(row.tenantId);
  if (status === 'suspended') return { outcome: 'deferred', reason: 'the organisation is suspended', delayMs: heldMs };
  if (status === 'deleted' || status === null)
    return { outcome: 'failed', reason: 'the organisation was deleted before the e-mail could be delivered' };
  try {
    await mailer.send(email);
  } catch (error) {
    return { outcome: 'retry', reason: maskedSecret(messageOf(error), email) };
  }
  return { outcome: 'delivered' };
}
