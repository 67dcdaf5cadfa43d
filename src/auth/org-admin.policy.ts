import { UNAUTHORIZED } from '../common/messages';
import { TenantStatus } from '../database/entities/tenant.entity';
import { IdentityUser } from '../identity/identity-store';
import { Caller } from './caller';

/**
 * The spec's messages for one org route (4.9 rules 5–6, 4.10 rules 2–3). A route without
 * `notOwnerOrAdmin` is open to every role of the organisation (the members and people lists).
 */
export interface OrgAdminMessages {
  notOrgUser: string;
  notOwnerOrAdmin?: string;
}

export type OrgAdminDecision = { allowed: true } | { allowed: false; status: 401 | 403; error: string };

/** Every org route's answer to each member of a suspended tenant (docs/tenant-lifecycle.md). */
export const ORGANISATION_SUSPENDED = 'Organisation is suspended';
const SUSPENDED: OrgAdminDecision = { allowed: false, status: 403, error: ORGANISATION_SUSPENDED };

const ORG_ADMIN_ROLES = ['owner', 'admin'];
/** An organisation user by these claims or this record: `org`, and a tenant named. */
export const isOrgUser = <T extends { userType: string | null; tenantId: string | null }>(
  user: T,
): user is T & { tenantId: string } => user.userType === 'org' && !!user.tenantId;
const isOwnerOrAdmin = (role: string | null) => ORG_ADMIN_ROLES.includes(role ?? '');

/** Spec 4.9 rules 4–6 and 4.10 rules 1–3, in order, on the id token's claims. */
export function decideOrgAdmin(caller: Caller | undefined, messages: OrgAdminMessages): OrgAdminDecision {
  if (!caller) return { allowed: false, status: 401, error: UNAUTHORIZED };
  if (!isOrgUser(caller)) return { allowed: false, status: 403, error: messages.notOrgUser };
  return roleDecision(caller.role, messages);
}

function roleDecision(role: string | null, messages: OrgAdminMessages): OrgAdminDecision {
  if (messages.notOwnerOrAdmin !== undefined && !isOwnerOrAdmin(role)) {
    return { allowed: false, status: 403, error: messages.notOwnerOrAdmin };
  }
  return { allowed: true };
}

/**
 * The same rules on the caller's stored record, so that a removal, demotion or deletion takes
 * effect at once rather than when the token expires (ASVS 8.3.2): a record that is gone, or no
 * longer an org user of the tenant the claims name, is "not an organisation user"; a stored role
 * that is not owner or admin is "not owner or admin".
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
): OrgAdminDecision {
  if (!record || !isOrgUser(record) || record.tenantId !== caller.tenantId || tenantStatus === 'deleted') {
    return { allowed: false, status: 403, error: messages.notOrgUser };
  }
  if (tenantStatus === 'suspended') return SUSPENDED;
  return roleDecision(record.role, messages);
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
