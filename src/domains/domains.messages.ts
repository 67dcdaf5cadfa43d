import { SSO_REQUIRED } from '../auth/org-admin.policy';
import { NOT_ORG_USER } from '../common/messages';
import { JOIN_ERRORS } from '../joining/join-errors';

/** The refusals of the domain routes: `{success:false, error}` (docs/domains.md). */
export const DOMAIN_ERRORS = {
  invalid: 'DOMAIN_INVALID',
  publicSuffix: 'DOMAIN_PUBLIC_SUFFIX',
  freeProvider: 'DOMAIN_FREE_PROVIDER',
  alreadyAdded: 'DOMAIN_ALREADY_ADDED',
  taken: 'DOMAIN_TAKEN',
  limit: 'DOMAIN_LIMIT',
  notFound: 'DOMAIN_NOT_FOUND',
  expired: 'VERIFICATION_EXPIRED',
  alreadyVerified: 'DOMAIN_ALREADY_VERIFIED',
  lapsed: 'DOMAIN_LAPSED',
  dnsUnavailable: 'DNS_UNAVAILABLE',
  invalidJoinMode: 'INVALID_JOIN_MODE',
  invalidDefaultRoles: 'INVALID_DEFAULT_ROLES',
  requestNotFound: 'REQUEST_NOT_FOUND',
  requestClosed: 'REQUEST_CLOSED',
  invalidStatus: 'INVALID_STATUS',
  reasonRequired: 'REASON_REQUIRED',
  tenantRequired: 'TENANT_ID_REQUIRED',
  nameRequired: 'NAME_REQUIRED',
  emailNotVerified: JOIN_ERRORS.emailNotVerified,
  memberOfAnotherOrganisation: JOIN_ERRORS.memberOfAnotherOrganisation,
  alreadyMember: 'ALREADY_MEMBER',
  emailInUse: JOIN_ERRORS.emailInUse,
  accountDeleted: 'ACCOUNT_DELETED',
  notJoinable: 'NOT_JOINABLE',
  removed: 'REMOVED_BY_ORGANISATION',
  ssoRequired: SSO_REQUIRED,
} as const;
export type DomainErrorCode = (typeof DOMAIN_ERRORS)[keyof typeof DOMAIN_ERRORS];

/** The org guard's refusals on these routes. */
export const DOMAIN_GUARD_MESSAGES = {
  notOrgUser: NOT_ORG_USER,
  notOwnerOrAdmin: 'Only owner or admin can manage domains',
} as const;

/** The 500 bodies of the routes. */
export const DOMAIN_FAILURES = {
  domains: 'Failed to manage domains',
  requests: 'Failed to manage join requests',
  me: 'Failed to read the signed-in user',
  join: 'Failed to join',
  admin: 'Failed to manage domains',
} as const;
