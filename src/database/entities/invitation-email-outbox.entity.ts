import { Column, Entity, PrimaryColumn } from 'typeorm';

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/**
 * An invitation e-mail waiting to be delivered, written in the transaction that creates the
 * invitation, so that an invitation never exists without its e-mail.
 */
@Entity({ name: 'invitation_email_outbox' })
export class InvitationEmailOutboxEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'invitation_id', type: 'varchar', length: 36 })
  invitationId: string;

  /** The InvitationEmail as JSON: recipient, tenant name, inviter, role, expiresAt and link. */
  @Column({ type: 'text' })
  payload: string;

  @Column({ type: 'varchar', length: 16 })
  status: OutboxStatus;

  /** Delivery attempts started so far. */
  @Column({ type: 'int' })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'datetime', precision: 3 })
  nextAttemptAt: Date;

  /** The worker that holds the row while its status is `sending`. */
  @Column({ name: 'claimed_by', type: 'varchar', length: 100, nullable: true })
  claimedBy: string | null;

  /** When the claim lapses: a row still `sending` after it belongs to a worker that died. */
  @Column({ name: 'claimed_until', type: 'datetime', precision: 3, nullable: true })
  claimedUntil: Date | null;

  /** The last failure, with the invitation token masked. */
  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'sent_at', type: 'datetime', precision: 3, nullable: true })
  sentAt: Date | null;
}
