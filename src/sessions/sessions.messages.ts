/** The refusals of the session routes (docs/sessions.md). */
import { HttpStatus } from '@nestjs/common';
import { NOT_ORG_USER } from '../common/messages';
import { Refusal, refusalSchema } from '../common/refusal';

export const SESSION_ERRORS = {
  /** No live session of the caller's has that id. */
  notFound: 'SESSION_NOT_FOUND',
  /** A sign-out's returnTo outside the rule of single sign-on's (docs/sso.md). */
  returnRefused: 'SESSION_RETURN_REFUSED',
  adminCannotRevokeOwner: "Admins cannot revoke owners' sessions",
} as const;

type SessionErrorCode = typeof SESSION_ERRORS.notFound | typeof SESSION_ERRORS.returnRefused;

export const sessionRefusal = (status: HttpStatus, error: SessionErrorCode, reason?: string) =>
  new Refusal(status, error, reason === undefined ? undefined : { reason });

/** The body of sessionRefusal, for the API document. */
export const SessionErrorBody = refusalSchema(
  'SessionErrorBody',
  [SESSION_ERRORS.notFound, SESSION_ERRORS.returnRefused],
  {
    reason: { type: 'string', description: 'Why, for a person to read' },
  },
);

/** The 500 bodies of the session routes. */
export const SESSION_FAILURES = {
  list: 'Failed to list sessions',
  revoke: 'Failed to revoke sessions',
  signOut: 'Failed to sign out',
} as const;

/** The org guard's messages on a member's session routes. */
export const MEMBER_SESSION_MESSAGES = {
  notOrgUser: NOT_ORG_USER,
  notOwnerOrAdmin: 'Only owner or admin can manage sessions',
};
