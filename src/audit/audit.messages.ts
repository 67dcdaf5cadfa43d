import { NOT_ORG_USER } from '../common/messages';

/** The audit routes' own messages (outside the spec, in its style). */
export const AUDIT_MESSAGES = {
  listFailed: 'Failed to list audit events',
  notOrgUser: NOT_ORG_USER,
  notOwnerOrAdmin: 'Only owner or admin can read the audit trail',
};
