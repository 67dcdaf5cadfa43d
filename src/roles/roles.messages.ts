import { NOT_ORG_USER } from '../common/messages';

/** The org guard's refusals on the role routes: reading them is any member's, changing them roles:manage. */
export const ROLES_READ_MESSAGES = { notOrgUser: NOT_ORG_USER } as const;
export const ROLES_MANAGE_MESSAGES = {
  notOrgUser: NOT_ORG_USER,
  notOwnerOrAdmin: 'Only owners can manage roles',
} as const;

/** The 500 bodies of the routes. */
export const ROLES_FAILURES = {
  roles: 'Failed to manage roles',
  memberRoles: 'Failed to update member',
  permissions: 'Failed to read permissions',
  catalogue: 'Failed to manage permissions',
} as const;
