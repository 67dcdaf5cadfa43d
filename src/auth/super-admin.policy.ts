import { IdentityUser, SUPER_ADMIN_ROLE } from '../identity/identity-store';
import { USER_NOT_FOUND } from '../common/messages';
import { Caller } from './caller';

export const NOT_AUTHENTICATED = 'Not authenticated';

export type SuperAdminDecision = { allowed: true } | { allowed: false; reason: string };

/** Spec section 5: the caller must be a super-administrator, judged by the identity store's record. */
export function decideSuperAdmin(caller: Caller | undefined, record: IdentityUser | null): SuperAdminDecision {
  if (!caller) return { allowed: false, reason: NOT_AUTHENTICATED };
  if (!record) return { allowed: false, reason: USER_NOT_FOUND };
  if (record.platformRole !== SUPER_ADMIN_ROLE) return { allowed: false, reason: 'Not a super admin' };
  return { allowed: true };
}
