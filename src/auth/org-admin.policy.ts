import { UNAUTHORIZED } from '../common/messages';
import { Caller } from './caller';

/** The spec's messages for one org route (4.9 rules 5–6, 4.10 rules 2–3). */
export interface OrgAdminMessages {
  notOrgUser: string;
  notOwnerOrAdmin: string;
}

export type OrgAdminDecision =
  | { allowed: true }
  | { allowed: false; status: 401 | 403; error: string };

const ORG_ADMIN_ROLES = ['owner', 'admin'];

/** Spec 4.9 rules 4–6 and 4.10 rules 1–3, in order. */
export function decideOrgAdmin(caller: Caller | undefined, messages: OrgAdminMessages): OrgAdminDecision {
  if (!caller) return { allowed: false, status: 401, error: UNAUTHORIZED };
  if (caller.userType !== 'org' || !caller.tenantId) {
    return { allowed: false, status: 403, error: messages.notOrgUser };
  }
  if (!ORG_ADMIN_ROLES.includes(caller.role ?? '')) {
    return { allowed: false, status: 403, error: messages.notOwnerOrAdmin };
  }
  return { allowed: true };
}
