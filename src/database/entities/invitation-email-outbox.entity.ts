import { Column, Entity } from 'typeorm';
import { IdColumn, VarcharColumn, TimestampColumn } from '../columns';
import { OutboxColumns } from '../outbox-rows';

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/**
 * An invitation e-mail waiting to be delivered, written in the transaction that creates the
 * invitation, so that an invitation never exists without its e-mail.
 */
@Entity({ name: 'invitation_email_outbox' })
export class InvitationEmailOutboxEntity implements OutboxColumns {
  @IdColumn()
  id: string;

  @VarcharColumn(36, { name: 'invitation_id' })
  invitationId: string;

  /** The InvitationEmail as JSON: recipient, tenant name, inviter, role, expiresAt and link. */
  @Column({ type: 'text' })
  payload: string;

  @VarcharColumn(16)
  status: OutboxStatus;

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

  /** The last failure, with the invitation token masked. */
  @VarcharColumn(1000, { name: 'last_error', nullable: true })
  lastError: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('sent_at', { nullable: true })
  sentAt: Date | null;
}
