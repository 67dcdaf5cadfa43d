import { InvitationEmailOutboxEntity, InvitationEntity } from '../../database/entities';
import { InvitationEmail } from '../invitation-mailer';

interface Payload extends Omit<InvitationEmail, 'expiresAt'> {
  tenantId: string;
  expiresAt: string;
}

/**
 * The outbox row that delivers `email` for `invitation`. Whoever creates the invitation writes
 * this row in the same transaction, so that an invitation never exists without its e-mail.
 */
export function newOutboxRow(
  id: string,
  invitation: Pick<InvitationEntity, 'id' | 'tenantId' | 'createdAt'>,
  email: InvitationEmail,
): InvitationEmailOutboxEntity {
  const payload: Payload = { ...email, tenantId: invitation.tenantId, expiresAt: email.expiresAt.toISOString() };
  return {
    id,
    invitationId: invitation.id,
    payload: JSON.stringify(payload),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: invitation.createdAt,
    claimedBy: null,
    claimedUntil: null,
    lastError: null,
    createdAt: invitation.createdAt,
    sentAt: null,
  };
}

/** What a row holds: the e-mail, and the tenant it was sent for. */
export function storedEmailOf(row: Pick<InvitationEmailOutboxEntity, 'payload'>): {
  tenantId: string;
  email: InvitationEmail;
} {
  const { tenantId, ...email } = JSON.parse(row.payload) as Payload;
  return { tenantId, email: { ...email, expiresAt: new Date(email.expiresAt) } };
}
