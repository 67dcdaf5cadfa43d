/** Messages that several features answer with; each feature's own live beside it. */
export const UNAUTHORIZED = 'Unauthorized';
export const FORBIDDEN = 'Forbidden';
export const EMAIL_REQUIRED = 'Email is required';
export const USER_NOT_FOUND = 'User not found';
/** The organisation routes' refusal of a caller who is not a user of an organisation. */
export const NOT_ORG_USER = 'Only organisation users can access this';
/** The refusal of a member by the routes on the organisation's invitations and their quota. */
export const NOT_OWNER_OR_ADMIN_FOR_INVITATIONS = 'Only owner or admin can manage invitations';
