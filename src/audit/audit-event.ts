import { Caller } from '../auth/caller';
import { AuditEventEntity, InvitationEntity, TenantEntity } from '../database/entities';
import { IdentityUser, SUPER_ADMIN_ROLE } from '../identity/identity-store';

/** Every event type. */
export const AUDIT_EVENT_TYPES = [
  'tenant.created',
  'invitation.created',
  'invitation.accepted',
  'invitation.expired',
  'member.removed',
  'super_admin.granted',
  'user.deleted',
  'invitation.revoked',
  'invitation.resent',
  'member.role_changed',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** Who made the change; null where nobody signed in did (the public accept, the operator CLI). */
export interface AuditActor {
  id: string;
  email: string | null;
}

/** What the change was made to. An invitation has no id here: its id is its token, a secret. */
export type AuditTarget =
  | { type: 'tenant'; id: string }
  | { type: 'user'; id: string; email: string | null }
  | { type: 'invitation'; id: null; email: string };

/** An event before the recorder gives it an id and a time. */
export interface NewAuditEvent {
  type: AuditEventType;
  tenantId: string | null;
  actor: AuditActor | null;
  target: AuditTarget;
  data: Record<string, unknown>;
}

/** The event as the API shows it (and as webhooks send it). */
export interface AuditEvent extends NewAuditEvent {
  id: string;
  occurredAt: string;
}

export const auditActor = (caller: Caller): AuditActor => ({ id: caller.id, email: caller.email });

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

/** An event about a user, filed under `tenantId`. */
const aboutUser = (
  type: AuditEventType,
  user: IdentityUser,
  tenantId: string | null,
  actor: AuditActor,
  data: Record<string, unknown>,
): NewAuditEvent => ({
  type,
  tenantId,
  actor,
  target: { type: 'user', id: user.id, email: user.email },
  data,
});

const expiry = (invitation: InvitationEntity) => ({ expiresAt: invitation.expiresAt.toISOString() });

/** One builder per change, so that every route records the same shape. */
export const auditEvents = {
  tenantCreated: (tenant: TenantEntity, actor: AuditActor | null): NewAuditEvent => ({
    type: 'tenant.created',
    tenantId: tenant.id,
    actor,
    target: { type: 'tenant', id: tenant.id },
    data: { name: tenant.name, type: tenant.type, status: tenant.status },
  }),
  invitationCreated: (invitation: InvitationEntity, actor: AuditActor) =>
    aboutInvitation('invitation.created', invitation, actor, expiry(invitation)),
  /** The new invitation of a resend; the one it replaces was revoked in the same transaction. */
  invitationResent: (invitation: InvitationEntity, actor: AuditActor) =>
    aboutInvitation('invitation.resent', invitation, actor, expiry(invitation)),
  invitationRevoked: (invitation: InvitationEntity, actor: AuditActor) =>
    aboutInvitation('invitation.revoked', invitation, actor, { statusBefore: invitation.status }),
  /** No actor: the accept is public. */
  invitationAccepted: (invitation: InvitationEntity) =>
    aboutInvitation('invitation.accepted', invitation, null, { invitedBy: invitation.invitedBy }),
  invitationExpired: (invitation: InvitationEntity) =>
    aboutInvitation('invitation.expired', invitation, null, expiry(invitation)),
  memberRemoved: (member: IdentityUser, actor: AuditActor) =>
    aboutUser('member.removed', member, member.tenantId, actor, { role: member.role }),
  memberRoleChanged: (member: IdentityUser, role: string, actor: AuditActor) =>
    aboutUser('member.role_changed', member, member.tenantId, actor, { roleBefore: member.role, roleAfter: role }),
  /** No tenant: the role is the platform's. */
  superAdminGranted: (user: IdentityUser, actor: AuditActor) =>
    aboutUser('super_admin.granted', user, null, actor, { platformRole: SUPER_ADMIN_ROLE }),
  /** Filed under the user's tenant, so that the organisation's trail shows its member leaving. */
  userDeleted: (user: IdentityUser, actor: AuditActor) =>
    aboutUser('user.deleted', user, user.tenantId, actor, { platformRole: user.platformRole, role: user.role }),
};

export function toAuditEventRow(id: string, occurredAt: Date, event: NewAuditEvent): AuditEventEntity {
  const { target } = event;
  return {
    id,
    type: event.type,
    occurredAt,
    tenantId: event.tenantId,
    actorId: event.actor?.id ?? null,
    actorEmail: event.actor?.email ?? null,
    targetType: target.type,
    targetId: target.id,
    targetEmail: 'email' in target ? target.email : null,
    data: JSON.stringify(event.data),
  };
}

export function toAuditEvent(row: AuditEventEntity): AuditEvent {
  const target = {
    type: row.targetType,
    id: row.targetId,
    ...(row.targetEmail !== null && { email: row.targetEmail }),
  } as AuditTarget;
  return {
    id: row.id,
    type: row.type as AuditEventType,
    occurredAt: row.occurredAt.toISOString(),
    tenantId: row.tenantId,
    actor: row.actorId === null ? null : { id: row.actorId, email: row.actorEmail },
    target,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}
