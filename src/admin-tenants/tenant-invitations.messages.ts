import { INVITE_ERRORS } from '../invitations/invitation.messages';

/** POST /api/admin/tenants/{id}/invitations: its own messages, and spec 4.9's where the rule is the same. */
export const TENANT_INVITATION_ERRORS = {
  tenantNotFound: 'Tenant not found',
  invalidRole: 'Invalid role. Must be owner, admin or member',
  alreadyMember: INVITE_ERRORS.alreadyMember,
  createFailed: INVITE_ERRORS.createFailed,
} as const;
