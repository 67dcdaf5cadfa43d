import { INVITATION_STATUSES } from '../database/entities/invitation.entity';

/** Issue 12: the organisation's invitation routes. */
export const ORG_INVITATION_ERRORS = {
  notOrgUser: 'Only organisation users can access this',
  notOwnerOrAdmin: 'Only owner or admin can manage invitations',
  invalidStatus: `Invalid status. Must be ${INVITATION_STATUSES.slice(0, -1).join(', ')} or ${INVITATION_STATUSES.at(-1)}`,
  notFound: 'Invitation not found',
  alreadyAccepted: 'Invitation already accepted',
  cannotResend: 'Invitation cannot be resent',
  listFailed: 'Failed to list invitations',
  revokeFailed: 'Failed to revoke invitation',
  resendFailed: 'Failed to resend invitation',
} as const;
