import { UNAUTHORIZED } from '../common/messages';
import { IdentityUser } from '../identity/identity-store';
import { Caller } from './caller';

/**
 * The spec's messages for one org route (4.9 rules 5–6, 4.10 rules 2–3). A route without
 * `notOwnerOrAdmin` is open to every role of the organisation (issue 12's member reads).
 */
export interface OrgAdminMessages {
  notOrgUser: string;
  notOwnerOrAdmin?: string;
}

export type OrgAdminDecision = { allowed: true } | { allowed: false; status: 401 | 403; error: string };

const ORG_ADMIN_ROLES = ['owner', 'admin'];
const isOrgUser = (user: { userType: string | null; tenantId: string | null }) =>
  user.userType === 'org' && !!user.tenantId;
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
 */
export function confirmOrgAdmin(
  caller: Caller,
  record: IdentityUser | null,
  messages: OrgAdminMessages,
): OrgAdminDecision {
  if (!record || !isOrgUser(record) || record.tenantId !== caller.tenantId) {
    return { allowed: false, status: 403, error: messages.notOrgUser };
  }
  return roleDecision(record.role, messages);
}
