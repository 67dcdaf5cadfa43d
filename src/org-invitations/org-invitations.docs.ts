import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, ErrorBody, UNAUTHORIZED_BODY } from '../common/openapi';
import { PAGING_ERRORS } from '../common/paging';
import { IDEMPOTENT_REPLAY_RESPONSE_HEADERS } from '../idempotency/idempotent';
import { IDEMPOTENCY_ERRORS } from '../idempotency/idempotency.messages';
import { ResendInvitationResponse } from '../invitations/dto/created-invitation.response';
import { RATE_LIMIT_RESPONSE_HEADERS, RATE_LIMITED_RESPONSE_HEADERS } from '../rate-limit/invite-quota.docs';
import { RATE_LIMITED } from '../rate-limit/rate-limit.module';
import { ListInvitationsResponse, RevokeInvitationResponse } from './dto/org-invitation.response';
import { ORG_INVITATION_ERRORS } from './org-invitations.messages';

/** The API document's part for OrgInvitationsController. The 500s are the handlers' @FailureResponse. */
export const ApiOrgInvitations = () =>
  applyDecorators(
    ApiTags('Organisation invitations'),
    ApiSession(),
    ApiErrorResponse(401, 'No session', [UNAUTHORIZED_BODY]),
    ApiErrorResponse(403, 'Not an owner or admin of an organisation', [
      { error: ORG_INVITATION_ERRORS.notOrgUser },
      { error: ORG_INVITATION_ERRORS.notOwnerOrAdmin },
    ]),
  );

export const ApiListInvitations = () =>
  applyDecorators(
    ApiOperation({ summary: 'The invitations of the caller’s organisation, by e-mail then id, a page at a time' }),
    ApiOkResponse({ type: ListInvitationsResponse }),
    ApiErrorResponse(400, 'Bad `status`, `limit` or `cursor`', [
      { error: ORG_INVITATION_ERRORS.invalidStatus },
      { error: PAGING_ERRORS.invalidLimit },
      { error: PAGING_ERRORS.invalidCursor },
    ]),
  );

export const ApiRevokeInvitation = () =>
  applyDecorators(
    ApiOperation({
      summary:
        'Revoke a pending or expired invitation: its token then answers 404 INVALID, as an unknown one (again: 200, no change)',
    }),
    ApiParam({ name: 'id', description: 'The invitation id (its token)' }),
    ApiOkResponse({ type: RevokeInvitationResponse }),
    ApiErrorResponse(400, 'The invitation was accepted', [{ error: ORG_INVITATION_ERRORS.alreadyAccepted }]),
    ApiErrorResponse(404, 'No such invitation in the organisation', [{ error: ORG_INVITATION_ERRORS.notFound }]),
  );

export const ApiResendInvitation = () =>
  applyDecorators(
    ApiOperation({
      summary:
        'Send a pending or expired invitation again: a new invitation (new token, 7 days) to the ' +
        'same address and role, the old one revoked; counts towards the invitation limit',
    }),
    ApiParam({ name: 'id', description: 'The invitation id (its token)' }),
    ApiOkResponse({
      type: ResendInvitationResponse,
      description: 'The new invitation, as POST /api/org/invite answers',
      headers: { ...RATE_LIMIT_RESPONSE_HEADERS, ...IDEMPOTENT_REPLAY_RESPONSE_HEADERS },
    }),
    ApiErrorResponse(400, 'The invitation was accepted or revoked, or a malformed Idempotency-Key', [
      { error: ORG_INVITATION_ERRORS.cannotResend },
      { error: IDEMPOTENCY_ERRORS.invalidKey },
    ]),
    ApiErrorResponse(404, 'No such invitation in the organisation', [{ error: ORG_INVITATION_ERRORS.notFound }]),
    ApiErrorResponse(
      429,
      'Over the per-user invitation limit, shared with POST /api/org/invite',
      [{ error: RATE_LIMITED }],
      ErrorBody,
      RATE_LIMITED_RESPONSE_HEADERS,
    ),
  );
