import { Caller } from '../auth/caller';
import { AuditEventEntity, InvitationEntity, TenantEntity } from '../database/entities';
import { IdentityUser, SUPER_ADMIN_ROLE } from '../identity/identity-store';

/** The event types of the service's own routes and CLI: what production writes. */
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
  'member.joined',
  'tenant.activated',
  'tenant.updated',
  'tenant.suspended',
  'tenant.reactivated',
  'tenant.deleted',
  'domain.added',
  'domain.verified',
  'domain.verification_failed',
  'domain.failing',
  'domain.lapsed',
  'domain.updated',
  'domain.removed',
  'domain.released',
  'join_request.created',
  'join_request.approved',
  'join_request.rejected',
] as const;
/** The event types of test mode's routes (docs/test-mode.md): of their own, never mistaken for real actions. */
export const TEST_MODE_EVENT_TYPES = [
  'test.mailbox_read',
  'test.session_issued',
  'test.clock_moved',
  'test.rate_limits_cleared',
  'test.tenants_removed',
] as const;
/** The event types of SCIM provisioning (docs/scim.md); `member.joined` and `member.removed` carry `via: "scim"` there. */
export const SCIM_EVENT_TYPES = [
  'scim.token_created',
  'scim.token_revoked',
  'scim.role_mapping_updated',
  'scim.group_created',
  'scim.group_updated',
  'scim.group_deleted',
  'scim.change_refused',
  'member.updated',
  'member.deactivated',
  'member.reactivated',
] as const;
/** The event types of custom roles and permissions (docs/roles.md). */
export const ROLE_EVENT_TYPES = [
  'role.created',
  'role.updated',
  'role.deleted',
  'member.roles_changed',
  'permissions.catalogue_changed',
] as const;
/** The event types of single sign-on (docs/sso.md); `member.joined` carries `via: "sso"` there. */
export const SSO_EVENT_TYPES = [
  'sso.connection_created',
  'sso.connection_updated',
  'sso.connection_activated',
  'sso.connection_deleted',
  'sso.enforced',
  'sso.login_succeeded',
  'sso.login_failed',
  'sso.certificate_expiring',
] as const;
/** Every event type that the trail may hold. */
export const EVERY_AUDIT_EVENT_TYPE = [
  ...AUDIT_EVENT_TYPES,
  ...SCIM_EVENT_TYPES,
  ...ROLE_EVENT_TYPES,
  ...SSO_EVENT_TYPES,
  ...TEST_MODE_EVENT_TYPES,
] as const;
export type AuditEventType = (typeof EVERY_AUDIT_EVENT_TYPE)[number];

/** Who made the change; null where nobody signed in did (the public accept, the operator CLI). */
export interface AuditActor {
  id: string;
  email: string | null;
}

/** What the change was made to. An invitation has no id here: its id is its token, a secret. */
export type AuditTarget =
  | { type: 'tenant'; id: string }
  | { type: 'user'; id: string; email: string | null }
  | { type: 'invitation'; id: null; email: string }
  /** A claim on an e-mail domain (docs/domains.md), named by the domain. */
  | { type: 'domain'; id: string }
  /** A request to join by a domain; the person asking is in `data`. */
  | { type: 'join_request'; id: string; email: string }
  /** Test mode's own actions on the whole service (docs/test-mode.md). */
  | { type: 'test_mode'; id: null }
  /** SCIM's tokens and groups (docs/scim.md). */
  | { type: 'scim_token'; id: string }
  | { type: 'scim_group'; id: string }
  | { type: 'scim_role_mapping'; id: null }
  /** An organisation's custom role, named by its key (docs/roles.md). */
  | { type: 'role'; id: string }
  /** The product's permission catalogue, the platform's. */
  | { type: 'permissions'; id: null }
  /** An organisation's single sign-on connection (docs/sso.md). */
  | { type: 'sso_connection'; id: string };

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

/** An event about a tenant, filed under it. */
const aboutTenant = (
  type: AuditEventType,
  tenant: TenantEntity,
  actor: AuditActor | null,
  data: Record<string, unknown>,
): NewAuditEvent => ({
  type,
  tenantId: tenant.id,
  actor,
  target: { type: 'tenant', id: tenant.id },
  data,
});

/** What a tenant's update changed: each field's value before and after. */
export type TenantChanges = Partial<Record<'name' | 'type', { before: string | null; after: string | null }>>;

const expiry = (invitation: InvitationEntity) => ({ expiresAt: invitation.expiresAt.toISOString() });
/** Custom roles in an event's data: named only when there are some, so that other events keep their shape. */
const withRoles = (roles: string[]) => (roles.length > 0 ? { roles } : {});

/** One builder per change, so that every route records the same shape. */
export const auditEvents = {
  tenantCreated: (tenant: TenantEntity, actor: AuditActor | null) =>
    aboutTenant('tenant.created', tenant, actor, { name: tenant.name, type: tenant.type, status: tenant.status }),
  /** The actor is null when the operator CLI made the change, as for every tenant event below. */
  tenantUpdated: (tenant: TenantEntity, changes: TenantChanges, actor: AuditActor | null) =>
    aboutTenant('tenant.updated', tenant, actor, changes),
  tenantSuspended: (tenant: TenantEntity, reason: string | null, actor: AuditActor | null) =>
    aboutTenant('tenant.suspended', tenant, actor, { reason, statusBefore: tenant.status }),
  tenantReactivated: (tenant: TenantEntity, status: string, actor: AuditActor | null) =>
    aboutTenant('tenant.reactivated', tenant, actor, { status }),
  tenantDeleted: (
    tenant: TenantEntity,
    counts: { membersDetached: number; invitationsRevoked: number },
    actor: AuditActor | null,
  ) => aboutTenant('tenant.deleted', tenant, actor, { name: tenant.name, ...counts }),
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
  /**
   * The person joined, by their invitation or by a verified domain: they are actor and target (an
   * approved join request: the approver is the actor). `domain`: the name they joined by;
   * `connection`: the single sign-on connection they signed in through (docs/sso.md).
   */
  memberJoined: (
    member: AuditActor,
    tenantId: string,
    role: string,
    via: 'invitation' | 'domain' | 'sso' = 'invitation',
    extra: { domain?: string; actor?: AuditActor; connection?: string } = {},
  ): NewAuditEvent => ({
    type: 'member.joined',
    tenantId,
    actor: extra.actor ?? member,
    target: { type: 'user', id: member.id, email: member.email },
    data: {
      role,
      via,
      ...(extra.domain !== undefined && { domain: extra.domain }),
      ...(extra.connection !== undefined && { connection: extra.connection }),
    },
  }),
  /** An event about an organisation's claim on a domain (docs/domains.md); null actor: the re-check loop. */
  aboutDomain: (
    type: AuditEventType,
    domain: { id: string; tenantId: string; name: string },
    actor: AuditActor | null,
    data: Record<string, unknown> = {},
  ): NewAuditEvent => ({
    type,
    tenantId: domain.tenantId,
    actor,
    target: { type: 'domain', id: domain.id },
    data: { domain: domain.name, ...data },
  }),
  aboutJoinRequest: (
    type: AuditEventType,
    request: { id: string; tenantId: string; userId: string; email: string; domain: string },
    actor: AuditActor | null,
    data: Record<string, unknown> = {},
  ): NewAuditEvent => ({
    type,
    tenantId: request.tenantId,
    actor,
    target: { type: 'join_request', id: request.id, email: request.email },
    data: { userId: request.userId, domain: request.domain, ...data },
  }),
  /** A tenant's first owner joined: the tenant leaves pending_owner. */
  tenantActivated: (tenantId: string, owner: AuditActor): NewAuditEvent => ({
    type: 'tenant.activated',
    tenantId,
    actor: owner,
    target: { type: 'tenant', id: tenantId },
    data: { statusBefore: 'pending_owner', status: 'active' },
  }),
  /** `roles`: the custom roles the member held, which went with the membership. */
  memberRemoved: (member: IdentityUser, actor: AuditActor, roles: string[] = []) =>
    aboutUser('member.removed', member, member.tenantId, actor, {
      role: member.role,
      ...withRoles(roles),
    }),
  memberRoleChanged: (member: IdentityUser, role: string, actor: AuditActor) =>
    aboutUser('member.role_changed', member, member.tenantId, actor, { roleBefore: member.role, roleAfter: role }),
  /** No tenant: the role is the platform's. */
  superAdminGranted: (user: IdentityUser, actor: AuditActor) =>
    aboutUser('super_admin.granted', user, null, actor, { platformRole: SUPER_ADMIN_ROLE }),
  /** Filed under the user's tenant, so that the organisation's trail shows its member leaving. */
  userDeleted: (user: IdentityUser, actor: AuditActor, roles: string[] = []) =>
    aboutUser('user.deleted', user, user.tenantId, actor, {
      platformRole: user.platformRole,
      role: user.role,
      ...withRoles(roles),
    }),
};

/** A custom role as its events show it. */
export interface AuditedRole {
  key: string;
  name: string;
  description: string | null;
  permissions: string[];
}

/** The role's fields as its events show them, whatever else the value carries. */
const audited = ({ key, name, description, permissions }: AuditedRole): AuditedRole => ({
  key,
  name,
  description,
  permissions,
});

/** An event about an organisation's custom role, filed under it. */
const aboutRole = (
  type: AuditEventType,
  tenantId: string,
  key: string,
  actor: AuditActor,
  data: Record<string, unknown>,
): NewAuditEvent => ({ type, tenantId, actor, target: { type: 'role', id: key }, data });

/** The events of custom roles and permissions (docs/roles.md). */
export const roleEvents = {
  roleCreated: (tenantId: string, role: AuditedRole, actor: AuditActor) =>
    aboutRole('role.created', tenantId, role.key, actor, { ...audited(role) }),
  /** `reason`: why a role changed without an edit (`permission_removed`: the catalogue lost it). */
  roleUpdated: (
    tenantId: string,
    before: AuditedRole,
    after: AuditedRole,
    actor: AuditActor,
    reason?: 'permission_removed',
  ) =>
    aboutRole('role.updated', tenantId, before.key, actor, {
      before: audited(before),
      after: audited(after),
      ...(reason && { reason }),
    }),
  /** `members`: how many held it; `reassignedTo`: the role they hold instead. */
  roleDeleted: (tenantId: string, role: AuditedRole, members: number, reassignedTo: string | null, actor: AuditActor) =>
    aboutRole('role.deleted', tenantId, role.key, actor, { ...audited(role), members, reassignedTo }),
  /** A member's custom roles, before and after; `reason` when no one set them (`role_deleted`: a reassignment). */
  memberRolesChanged: (
    member: { id: string; email: string | null },
    tenantId: string,
    before: string[],
    after: string[],
    actor: AuditActor,
    reason?: 'role_deleted',
  ): NewAuditEvent => ({
    type: 'member.roles_changed',
    tenantId,
    actor,
    target: { type: 'user', id: member.id, email: member.email },
    data: { before, after, ...(reason && { reason }) },
  }),
  /** The product's catalogue changed: keys added and removed, descriptions changed, roles that lost a removed key. */
  catalogueChanged: (
    change: { added: string[]; removed: string[]; described: string[]; rolesChanged: number },
    actor: AuditActor,
  ): NewAuditEvent => ({
    type: 'permissions.catalogue_changed',
    tenantId: null,
    actor,
    target: { type: 'permissions', id: null },
    data: change,
  }),
};

/** The events of test mode (docs/test-mode.md): types of their own, never mistaken for real actions. */
const aboutTestMode = (type: AuditEventType, data: Record<string, unknown>): NewAuditEvent => ({
  type,
  tenantId: null,
  actor: null,
  target: { type: 'test_mode', id: null },
  data,
});

export const testModeEvents = {
  mailboxRead: (to: string, emails: number): NewAuditEvent => ({
    ...aboutTestMode('test.mailbox_read', { emails }),
    target: { type: 'invitation', id: null, email: to },
  }),
  sessionIssued: (user: Pick<IdentityUser, 'id' | 'email'>, tenantId: string | null): NewAuditEvent => ({
    ...aboutTestMode('test.session_issued', {}),
    tenantId,
    target: { type: 'user', id: user.id, email: user.email },
  }),
  clockMoved: (offsetSeconds: number) => aboutTestMode('test.clock_moved', { offsetSeconds }),
  rateLimitsCleared: () => aboutTestMode('test.rate_limits_cleared', {}),
  tenantsRemoved: (namePrefix: string, tenants: number) =>
    aboutTestMode('test.tenants_removed', { namePrefix, tenants }),
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
