/** The events of an invitation: created, resent, revoked, accepted, expired. */

import { InvitationEntity } from '../../database/entities';
import { AuditEventType } from '../audit-event-types';
import { AuditActor, NewAuditEvent } from '../audit-event-shape';
import { withRoles } from './role-events';

/** An event about an invitation, filed under its tenant. It is named by e-mail: its id is its token. */
const aboutInvitation = (
  type: AuditEventType,
  invitation: InvitationEntity,
  actor: AuditActor | null,
  data: Record<string, unknown>,
): NewAuditEvent => ({
  type,
  tenantId: invitation.tenantId,
  actor,
  target: { type: 'invitation', id: null, email: invitation.email },
  data: { role: invitation.role, ...data },
});

const expiry = (invitation: InvitationEntity) => ({ expiresAt: invitation.expiresAt.toISOString() });

export const invitationEvents = {
  /** `roles`: the custom roles the invitation carries (docs/roles.md). */
  invitationCreated: (invitation: InvitationEntity, actor: AuditActor, roles: string[] = []) =>
    aboutInvitation('invitation.created', invitation, actor, { ...expiry(invitation), ...withRoles(roles) }),
  /** The new invitation of a resend; the one it replaces was revoked in the same transaction. */
  invitationResent: (invitation: InvitationEntity, actor: AuditActor, roles: string[] = []) =>
    aboutInvitation('invitation.resent', invitation, actor, { ...expiry(invitation), ...withRoles(roles) }),
  invitationRevoked: (invitation: InvitationEntity, actor: AuditActor) =>
    aboutInvitation('invitation.revoked', invitation, actor, { statusBefore: invitation.status }),
  /** No actor: the accept is public. */
  invitationAccepted: (invitation: InvitationEntity) =>
    aboutInvitation('invitation.accepted', invitation, null, { invitedBy: invitation.invitedBy }),
  invitationExpired: (invitation: InvitationEntity) =>
    aboutInvitation('invitation.expired', invitation, null, expiry(invitation)),
};
