import { InvitationEntity } from '../../database/entities';

/** Spec 4.9 rule 11: the invitation as the inviter sees it. */
export interface InvitationResponse {
  id: string;
  /** As submitted: the stored row holds it lower-cased. */
  email: string;
  role: string;
  status: string;
  expiresAt: string;
}

export const toInvitationResponse = (invitation: InvitationEntity, submittedEmail: string): InvitationResponse => ({
  id: invitation.id,
  email: submittedEmail,
  role: invitation.role,
  status: invitation.status,
  expiresAt: invitation.expiresAt.toISOString(),
});
