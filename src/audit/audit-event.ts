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

const userTarget = (user: IdentityUser): AuditTarget => ({ type: 'user', id: user.id, email: user.email });
const invitationTarget = (invitation: InvitationEntity): AuditTarget => ({ type: 'invitation', id: null, email: invitation.email });

/** One builder per change, so that every route records the same shape. */
export const auditEvents = {
  tenantCreated: (tenant: TenantEntity, actor: AuditActor | null): NewAuditEvent => ({
    type: 'tenant.created',
    tenantId: tenant.id,
    actor,
    target: { type: 'tenant', id: tenant.id },
    data: { name: tenant.name, type: tenant.type, status: tenant.status },
  }),
  invitationCreated: (invitation: InvitationEntity, actor: AuditActor): NewAuditEvent => ({
    type: 'invitation.created',
    tenantId: invitation.tenantId,
    actor,
    target: invitationTarget(invitation),
    data: { role: invitation.role, expiresAt: invitation.expiresAt.toISOString() },
  }),
  /** The new invitation of a resend; the one it replaces was revoked in the same transaction. */
  invitationResent: (invitation: InvitationEntity, actor: AuditActor): NewAuditEvent => ({
    type: 'invitation.resent',
    tenantId: invitation.tenantId,
    actor,
    target: invitationTarget(invitation),
    data: { role: invitation.role, expiresAt: invitation.expiresAt.toISOString() },
  }),
  invitationRevoked: (invitation: InvitationEntity, actor: AuditActor): NewAuditEvent => ({
    type: 'invitation.revoked',
    tenantId: invitation.tenantId,
    actor,
    target: invitationTarget(invitation),
    data: { role: invitation.role, statusBefore: invitation.status },
  }),
  invitationAccepted: (invitation: InvitationEntity): NewAuditEvent => ({
    type: 'invitation.accepted',
    tenantId: invitation.tenantId,
    actor: null,
    target: invitationTarget(invitation),
    data: { role: invitation.role, invitedBy: invitation.invitedBy },
  }),
  invitationExpired: (invitation: InvitationEntity): NewAuditEvent => ({
    type: 'invitation.expired',
    tenantId: invitation.tenantId,
    actor: null,
    target: invitationTarget(invitation),
    data: { role: invitation.role, expiresAt: invitation.expiresAt.toISOString() },
  }),
  memberRemoved: (member: IdentityUser, actor: AuditActor): NewAuditEvent => ({
    type: 'member.removed',
    tenantId: member.tenantId,
    actor,
    target: userTarget(member),
    data: { role: member.role },
  }),
  memberRoleChanged: (member: IdentityUser, role: string, actor: AuditActor): NewAuditEvent => ({
    type: 'member.role_changed',
    tenantId: member.tenantId,
    actor,
    target: userTarget(member),
    data: { roleBefore: member.role, roleAfter: role },
  }),
  superAdminGranted: (user: IdentityUser, actor: AuditActor): NewAuditEvent => ({
    type: 'super_admin.granted',
    tenantId: null,
    actor,
    target: userTarget(user),
    data: { platformRole: SUPER_ADMIN_ROLE },
  }),
  /** Filed under the user's tenant, so that the organisation's trail shows its member leaving. */
  userDeleted: (user: IdentityUser, actor: AuditActor): NewAuditEvent => ({
    type: 'user.deleted',
    tenantId: user.tenantId,
    actor,
    target: userTarget(user),
    data: { platformRole: user.platformRole, role: user.role },
  }),
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
  const target = { type: row.targetType, id: row.targetId, ...(row.targetEmail !== null && { email: row.targetEmail }) } as AuditTarget;
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
