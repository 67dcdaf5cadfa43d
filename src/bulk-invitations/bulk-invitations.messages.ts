import { EMAIL_REQUIRED, NOT_ORG_USER, NOT_OWNER_OR_ADMIN_FOR_INVITATIONS } from '../common/messages';
import { RATE_LIMITED } from '../rate-limit/rate-limit.module';

/** POST /api/org/invitations/bulk: refusals of the whole request. */
export const BULK_INVITATION_ERRORS = {
  notOrgUser: NOT_ORG_USER,
  notOwnerOrAdmin: NOT_OWNER_OR_ADMIN_FOR_INVITATIONS,
  notAList: 'invitations must be a list',
  empty: 'No invitations to send',
  tooMany: (max: number) => `Too many invitations: at most ${max} per request`,
  invalidDryRun: 'dryRun must be true or false',
  malformedCsv: 'Malformed CSV body',
  csvHeader: 'The CSV header must name the columns email and role',
  sendFailed: 'Failed to send the invitations',
} as const;

/** The `error` of a row that is not created. */
export const BULK_ROW_ERRORS = {
  notAnObject: 'Each invitation must be an object with email and role',
  emailRequired: EMAIL_REQUIRED,
  invalidEmail: 'Invalid email address',
  invalidRole: 'Invalid role. Must be admin or member',
  invalidRoles: 'Invalid roles. Must be a list of distinct role keys',
  unknownRole: (key: string) => `UNKNOWN_ROLE: ${key} is not a role of this organisation`,
  roleEscalation: (permission: string) => `ROLE_ESCALATION: giving these roles needs ${permission}, which you lack`,
  tooManyRoles: (limit: number) => `MEMBER_ROLE_LIMIT: at most ${limit} roles`,
  alreadyMember: 'User is already a member of this organisation',
  alreadyInvited: 'This address has a pending invitation',
  duplicateOf: (row: number) => `Same address as row ${row}`,
  rateLimited: RATE_LIMITED,
  createFailed: 'Failed to create invitation',
} as const;
