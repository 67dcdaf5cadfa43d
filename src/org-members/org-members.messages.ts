import { NOT_ORG_USER } from '../common/messages';

/** Spec 4.10 and the member routes: the error messages of the organisation routes. */
export const REMOVE_MEMBER_ERRORS = {
  notOrgUser: NOT_ORG_USER,
  notOwnerOrAdmin: 'Only owner or admin can remove users',
  cannotRemoveSelf: 'Cannot remove yourself',
  notInOrganisation: 'User is not in your organisation',
  adminCannotRemoveOwner: 'Admins cannot remove owners',
  removeFailed: 'Failed to remove user',
} as const;

/** The member routes (GET /api/org/members, PATCH /api/org/members/{id}). */
export const MEMBER_ERRORS = {
  notOrgUser: NOT_ORG_USER,
  notOwnerOrAdmin: 'Only owner or admin can manage members',
  invalidRole: 'Invalid role. Must be owner, admin or member',
  cannotChangeOwnRole: 'Cannot change your own role',
  adminCannotChangeOwner: 'Admins cannot change owners',
  onlyOwnersGrantOwner: 'Only owners can grant the owner role',
  listFailed: 'Failed to list members',
  updateFailed: 'Failed to update member',
} as const;
