import { INVITE_ERRORS } from '../invitations/invitation.messages';
import { TENANT_LIFECYCLE_ERRORS } from './tenant-lifecycle.messages';

/** POST /api/admin/tenants/{id}/invitations: its own messages, and spec 4.9's where the rule is the same. */
export const TENANT_INVITATION_ERRORS = {
  tenantNotFound: TENANT_LIFECYCLE_ERRORS.notFound,
  tenantDeleted: TENANT_LIFECYCLE_ERRORS.deleted,
  invalidRole: 'Invalid role. Must be owner, admin or member',
  alreadyMember: INVITE_ERRORS.alreadyMember,
  createFailed: INVITE_ERRORS.createFailed,
} as const;
