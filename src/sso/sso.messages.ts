import { HttpStatus } from '@nestjs/common';
import { Refusal, refusalSchema } from '../common/refusal';
import { JOIN_ERRORS } from '../joining/join-errors';
import { DOMAIN_ERRORS } from '../domains/domains.messages';
import { FORBIDDEN, NOT_ORG_USER } from '../common/messages';

/** The codes of single sign-on's refusals (docs/sso.md), each with a `reason` that says which check failed. */
export const SSO_ERRORS = {
  notConfigured: 'SSO_NOT_CONFIGURED',
  secretUnreadable: 'SSO_SECRET_UNREADABLE',
  invalid: 'SSO_CONNECTION_INVALID',
  enforcementInvalid: 'SSO_ENFORCEMENT_INVALID',
  noActiveConnection: 'SSO_NO_ACTIVE_CONNECTION',
  limit: 'SSO_CONNECTION_LIMIT',
  discoveryFailed: 'SSO_DISCOVERY_FAILED',
  metadataInvalid: 'SSO_METADATA_INVALID',
  notFound: 'SSO_NOT_FOUND',
  emailInvalid: 'SSO_EMAIL_INVALID',
  rateLimited: 'SSO_RATE_LIMITED',
  returnRefused: 'SSO_RETURN_REFUSED',
  stateInvalid: 'SSO_STATE_INVALID',
  idpError: 'SSO_IDP_ERROR',
  tokenInvalid: 'SSO_TOKEN_INVALID',
  assertionInvalid: 'SSO_ASSERTION_INVALID',
  replayed: 'SSO_REPLAYED',
  domainMismatch: 'SSO_DOMAIN_MISMATCH',
  notProvisioned: 'SSO_NOT_PROVISIONED',
  memberOfAnotherOrganisation: JOIN_ERRORS.memberOfAnotherOrganisation,
  emailInUse: JOIN_ERRORS.emailInUse,
  removed: DOMAIN_ERRORS.removed,
} as const;
export type SsoErrorCode = (typeof SSO_ERRORS)[keyof typeof SSO_ERRORS];

/** A refusal of single sign-on: `{success:false, error, reason}`. */
export const ssoRefusal = (status: HttpStatus, error: SsoErrorCode, reason: string) =>
  new Refusal(status, error, { reason });

/** The body of ssoRefusal, for the API document. */
export const SsoErrorBody = refusalSchema('SsoErrorBody', Object.values(SSO_ERRORS), {
  reason: { type: 'string', description: 'The check that failed, for a person to read' },
});

/** Why a sign-in cannot start under NODE_ENV=production without PUBLIC_BASE_URL. */
export const PUBLIC_BASE_URL_REQUIRED =
  'PUBLIC_BASE_URL is not set: under NODE_ENV=production single sign-on makes its redirect URIs and ACS URLs ' +
  'from PUBLIC_BASE_URL only, never from a request’s Host; an operator sets it to this service’s public address';

/** The org guard's messages on the org routes of single sign-on: whoever the route does not open is answered 403 Forbidden. */
export const SSO_GUARD_MESSAGES = { notOrgUser: NOT_ORG_USER, notOwnerOrAdmin: FORBIDDEN };

/** The 500 bodies of the SSO routes. */
export const SSO_FAILURES = {
  connections: 'Failed to manage single sign-on',
  signIn: 'Single sign-on failed',
} as const;
