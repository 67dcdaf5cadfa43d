/** The spec's expected bodies, in one place (spec sections 4, 5 and 7, and the README's Errors). */
export const UNAUTHORIZED = { error: 'Unauthorized' };
export const FORBIDDEN = { error: 'Forbidden' };

export const TENANT_ERRORS = {
  nameRequired: { error: 'Name is required' },
  typeRequired: { error: 'Type is required' },
  invalidType: { error: 'Invalid tenant type. Must be one of: personal, organisation, charity, business, nonprofit' },
  fetchFailed: { error: 'Failed to fetch tenants' },
  createFailed: { error: 'Failed to create tenant' },
};

export const SUPER_ADMIN_ERRORS = {
  emailRequired: { error: 'Email is required' },
  notFound: { error: 'User not found with that email' },
  alreadySuperAdmin: { error: 'User is already a super admin' },
};

export const USER_NOT_FOUND = { error: 'User not found' };

export const INVITATION_GET = {
  invalid: { valid: false, error: 'INVALID' },
  alreadyUsed: { valid: false, error: 'ALREADY_USED' },
  expired: { valid: false, error: 'EXPIRED' },
};

export const INVITATION_POST = {
  invalid: { success: false, error: 'INVALID' },
  alreadyUsed: { success: false, error: 'ALREADY_USED' },
  expired: { success: false, error: 'EXPIRED' },
  internal: { success: false, error: 'INTERNAL_ERROR' },
};

export const INVITE_ERRORS = {
  emailRequired: { error: 'Email is required' },
  invalidRole: { error: 'Invalid role. Must be admin or member' },
  notOrgUser: { error: 'Only organisation users can invite' },
  notOwnerOrAdmin: { error: 'Only owner or admin can invite users' },
  rateLimited: { error: 'Too many invitations. Please try again later.' },
  alreadyMember: { error: 'User is already a member of this organisation' },
  createFailed: { error: 'Failed to create invitation' },
};

export const REMOVE_MEMBER_ERRORS = {
  notOrgUser: { error: 'Only organisation users can access this' },
  notOwnerOrAdmin: { error: 'Only owner or admin can remove users' },
  cannotRemoveSelf: { error: 'Cannot remove yourself' },
  notInOrganisation: { error: 'User is not in your organisation' },
  adminCannotRemoveOwner: { error: 'Admins cannot remove owners' },
  removeFailed: { error: 'Failed to remove user' },
};

/** The member routes and the paging of every list. */
export const MEMBER_ERRORS = {
  notOrgUser: { error: 'Only organisation users can access this' },
  notOwnerOrAdmin: { error: 'Only owner or admin can manage members' },
  invalidRole: { error: 'Invalid role. Must be owner, admin or member' },
  cannotChangeOwnRole: { error: 'Cannot change your own role' },
  adminCannotChangeOwner: { error: 'Admins cannot change owners' },
  onlyOwnersGrantOwner: { error: 'Only owners can grant the owner role' },
  listFailed: { error: 'Failed to list members' },
  updateFailed: { error: 'Failed to update member' },
};

export const ORG_INVITATION_ERRORS = {
  notOrgUser: { error: 'Only organisation users can access this' },
  notOwnerOrAdmin: { error: 'Only owner or admin can manage invitations' },
  invalidStatus: { error: 'Invalid status. Must be pending, accepted, expired or revoked' },
  notFound: { error: 'Invitation not found' },
  alreadyAccepted: { error: 'Invitation already accepted' },
  cannotResend: { error: 'Invitation cannot be resent' },
  listFailed: { error: 'Failed to list invitations' },
  revokeFailed: { error: 'Failed to revoke invitation' },
  resendFailed: { error: 'Failed to resend invitation' },
};

export const PEOPLE_ERRORS = {
  notOrgUser: { error: 'Only organisation users can access this' },
  listFailed: { error: 'Failed to list people' },
};

export const PAGING_ERRORS = {
  invalidLimit: { error: 'Invalid limit. Must be an integer from 1 to 100' },
  invalidCursor: { error: 'Invalid cursor' },
};

/** ISO 8601 timestamps as the API prints them. */
export const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
