/** The audit routes' own messages (outside the spec, in its style). */
export const AUDIT_MESSAGES = {
  listFailed: 'Failed to list audit events',
  notOrgUser: 'Only organisation users can access this',
  notOwnerOrAdmin: 'Only owner or admin can read the audit trail',
};
