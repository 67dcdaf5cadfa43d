import { FORBIDDEN, UNAUTHORIZED } from '../common/messages';
import { TenantStatus } from '../database/entities/tenant.entity';
import { TenantGate } from '../database/tenant-status-reader';
import { IdentityUser } from '../identity/identity-store';
import { baseRoleHolds, isGrantable, ServicePermission } from '../permissions/permission-catalogue';
import { Caller } from './caller';

/**
 * The spec's messages for one org route (4.9 rules 5–6, 4.10 rules 2–3). A route without
 * `notOwnerOrAdmin` is open to every role of the organisation (the members and people lists).
 * `notOwnerOrAdmin` is the refusal of a caller whose roles lack the route's permission.
 */
export interface OrgAdminMessages {
  notOrgUser: string;
  notOwnerOrAdmin?: string;
}

/**
 * What an org route asks of its caller's roles (docs/roles.md): a permission of the catalogue,
 * held by a base role or carried by one of the caller's custom roles; or null for a route decided
 * by the base roles alone, as the spec's routes were (owner or admin when the messages carry
 * `notOwnerOrAdmin`, any role otherwise), which no custom role opens.
 */
export type RoutePermission = ServicePermission | null;

export type OrgAdminDecision = { allowed: true } | { allowed: false; status: 401 | 403; error: string };

/**
 * An organisation that requires single sign-on (docs/sso.md, "Enforcement") refuses its members'
 * sessions unless a live session (`sid`) that an active connection of that same organisation made;
 * its owners keep access without it (the break-glass).
 */
export const SSO_REQUIRED = 'SSO_REQUIRED';
/** Where a person signs in by single sign-on: discovery by their address (docs/sso.md). */
export const ssoStartUrl = (base: string, email: string) => `${base}/sso/start?email=${encodeURIComponent(email)}`;
export const requiresSso = (gate: TenantGate | null, record: IdentityUser, caller: Caller): boolean =>
  gate?.ssoEnforced === true &&
  record.role !== 'owner' &&
  !(caller.sso?.active === true && caller.sso.tenantId === record.tenantId);

/** Every org route's answer to each member of a suspended tenant (docs/tenant-lifecycle.md). */
export const ORGANISATION_SUSPENDED = 'Organisation is suspended';
const SUSPENDED: OrgAdminDecision = { allowed: false, status: 403, error: ORGANISATION_SUSPENDED };

const ORG_ADMIN_ROLES = ['owner', 'admin'];
/** An organisation user by these claims or this record: `org`, and a tenant named. */
export const isOrgUser = <T extends { userType: string | null; tenantId: string | null }>(
  user: T,
): user is T & { tenantId: string } => user.userType === 'org' && !!user.tenantId;
const isOwnerOrAdmin = (role: string | null) => ORG_ADMIN_ROLES.includes(role ?? '');

/**
 * Spec 4.9 rules 4–6 and 4.10 rules 1–3, in order, on the id token's claims: the base role that
 * the claims carry. Custom roles are never in a token: a refusal here is looked at again with the
 * stored roles (customRolesMayGrant), so that no stale claim grants anything.
 */
export function decideOrgAdmin(
  caller: Caller | undefined,
  messages: OrgAdminMessages,
  permission: RoutePermission = null,
): OrgAdminDecision {
  if (!caller) return { allowed: false, status: 401, error: UNAUTHORIZED };
  if (!isOrgUser(caller)) return { allowed: false, status: 403, error: messages.notOrgUser };
  return roleDecision(caller.role, messages, permission, false);
}

/** The base role opens the route, or a custom role carries its permission; else the route's refusal. */
function roleDecision(
  role: string | null,
  messages: OrgAdminMessages,
  permission: RoutePermission,
  grantedByCustomRoles: boolean,
): OrgAdminDecision {
  if (grantedByCustomRoles || baseRoleOpens(role, messages, permission)) return { allowed: true };
  return { allowed: false, status: 403, error: messages.notOwnerOrAdmin ?? FORBIDDEN };
}

/**
 * Whether the base role opens the route: by the catalogue (an owner holds every permission, an
 * admin all but the owner-only ones, any other role `members:read`), or, for a route without a
 * permission, as the spec's messages say.
 */
function baseRoleOpens(role: string | null, messages: OrgAdminMessages, permission: RoutePermission): boolean {
  if (permission !== null) return baseRoleHolds(role, permission);
  return messages.notOwnerOrAdmin === undefined || isOwnerOrAdmin(role);
}

/** Whether a custom role can open the route: it has a permission that a role may carry. */
export const customRolesMayGrant = (permission: RoutePermission): permission is ServicePermission =>
  permission !== null && isGrantable(permission);

/**
 * The same rules on the caller's stored record, so that a removal, demotion or deletion takes
 * effect at once rather than when the token expires (ASVS 8.3.2): a record that is gone, or no
 * longer an org user of the tenant the claims name, is "not an organisation user"; a stored role
 * that does not open the route is refused with its message, unless one of the caller's stored
 * custom roles carries the route's permission (`grantedByCustomRoles`, read only then).
 *
 * Then the tenant's status, read with the record: a tenant being deleted has no organisation
 * users left (they are being detached), and a suspended one's members are refused as such before
 * their role is looked at. Any other status, or no tenant row, changes nothing.
 */
export function confirmOrgAdmin(
  caller: Caller,
  record: IdentityUser | null,
  messages: OrgAdminMessages,
  tenantStatus: TenantStatus | null = null,
  permission: RoutePermission = null,
  grantedByCustomRoles = false,
): OrgAdminDecision {
  if (!record || !isOrgUser(record) || record.tenantId !== caller.tenantId || tenantStatus === 'deleted') {
    return { allowed: false, status: 403, error: messages.notOrgUser };
  }
  if (tenantStatus === 'suspended') return SUSPENDED;
  return roleDecision(record.role, messages, permission, grantedByCustomRoles && customRolesMayGrant(permission));
}

/** Whether decideOrgAdmin refused the caller by the role that the claims carry (the caller is an org user by them). */
export const isRoleRefusal = (decision: OrgAdminDecision, messages: OrgAdminMessages): boolean =>
  !decision.allowed && decision.status === 403 && decision.error === messages.notOwnerOrAdmin;

/**
 * A refusal by the claims' role, once the status of the tenant that the claims name is known: a
 * suspended tenant's members hear that, whatever role their token carries.
 */
export const refuseClaimedRole = (refusal: OrgAdminDecision, tenantStatus: TenantStatus | null): OrgAdminDecision =>
  tenantStatus === 'suspended' ? SUSPENDED : refusal;
