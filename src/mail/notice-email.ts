/**
 * Notice e-mails (docs/setup-links.md): a message composed by the feature that sends it (a setup
 * link to the IT admin, an owner told of a setup's progress), delivered through the notice outbox.
 */
import { NoticeEmailOutboxEntity } from '../database/entities';

export interface NoticeEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A secret that the message carries (a link's token): never in a log line or a stored error. */
  secret?: string;
}

/** The port that sends notice e-mails; rejects when the message could not be handed over. */
export abstract class NoticeMailer {
  abstract send(email: NoticeEmail): Promise<void>;
}

/** `text` with the e-mail's secret masked. */
export const maskedSecret = (text: string, email: Pick<NoticeEmail, 'secret'>): string =>
  email.secret ? text.replaceAll(email.secret, '<token>') : text;

/** The outbox row that delivers `email` for the organisation `tenantId`, due at `now`. */
export function newNoticeRow(id: string, tenantId: string, email: NoticeEmail, now: Date): NoticeEmailOutboxEntity {
  return {
    id,
    tenantId,
    payload: JSON.stringify(email),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    claimedBy: null,
    claimedUntil: null,
    lastError: null,
    createdAt: now,
  };
}

export const noticeOf = (row: Pick<NoticeEmailOutboxEntity, 'payload'>): NoticeEmail =>
  JSON.parse(row.payload) as NoticeEmail;
