import { Column, Entity } from 'typeorm';
import { TimestampColumn, VarcharColumn } from '../columns';
import { OutboxRowColumns } from '../outbox-row-columns';

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/**
 * An invitation e-mail waiting to be delivered, written in the transaction that creates the
 * invitation, so that an invitation never exists without its e-mail. `lastError` holds the last
 * failure with the invitation token masked.
 */
@Entity({ name: 'invitation_email_outbox' })
export class InvitationEmailOutboxEntity extends OutboxRowColumns<OutboxStatus> {
  @VarcharColumn(36, { name: 'invitation_id' })
  invitationId: string;

  /** The InvitationEmail as JSON: recipient, tenant name, inviter, role, expiresAt and link. */
  @Column({ type: 'text' })
  payload: string;

  @TimestampColumn('sent_at', { nullable: true })
  sentAt: Date | null;
}
