/** Spec 4.5–4.8: the messages of the super-admin and user routes. */
export const ADMIN_USERS_MESSAGES = {
  notFoundByEmail: 'User not found with that email',
  alreadySuperAdmin: 'User is already a super admin',
  granted: 'Super admin role granted',
  deleted: 'User deleted',
  listFailed: 'Failed to list super admins',
  grantFailed: 'Failed to grant super admin role',
  getFailed: 'Failed to get user',
  deleteFailed: 'Failed to delete user',
} as const;
