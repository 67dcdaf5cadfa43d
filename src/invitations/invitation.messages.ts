/** Spec 4.9: the invite's error messages, shared by every route that invites (the org invite, first owners). */
export const INVITE_ERRORS = {
  invalidEmail: 'Invalid email address',
  invalidRole: 'Invalid role. Must be admin or member',
  /** The custom roles beside `role` (docs/roles.md). */
  invalidRoles: 'Invalid roles. Must be a list of distinct role keys',
  notOrgUser: 'Only organisation users can invite',
  notOwnerOrAdmin: 'Only owner or admin can invite users',
  alreadyMember: 'User is already a member of this organisation',
  createFailed: 'Failed to create invitation',
} as const;
