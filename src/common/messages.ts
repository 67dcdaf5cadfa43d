/** Spec and CONTRACT messages that several features answer with; each feature's own live beside it. */
export const UNAUTHORIZED = 'Unauthorized';
export const FORBIDDEN = 'Forbidden';
export const EMAIL_REQUIRED = 'Email is required';
export const USER_NOT_FOUND = 'User not found';
