import { NOT_ORG_USER, NOT_OWNER_OR_ADMIN_FOR_INVITATIONS } from '../common/messages';
import { INVITATION_STATUSES } from '../database/entities/invitation.entity';

/** The organisation's invitation routes, /api/org/invitations. */
export const ORG_INVITATION_ERRORS = {
  notOrgUser: NOT_ORG_USER,
  notOwnerOrAdmin: NOT_OWNER_OR_ADMIN_FOR_INVITATIONS,
  invalidStatus: `Invalid status. Must be ${INVITATION_STATUSES.slice(0, -1).join(', ')} or ${INVITATION_STATUSES.at(-1)}`,
  notFound: 'Invitation not found',
  alreadyAccepted: 'Invitation already accepted',
  cannotResend: 'Invitation cannot be resent',
  listFailed: 'Failed to list invitations',
  revokeFailed: 'Failed to revoke invitation',
  resendFailed: 'Failed to resend invitation',
} as const;
