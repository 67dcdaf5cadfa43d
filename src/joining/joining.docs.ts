import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, UNAUTHORIZED_BODY } from '../common/openapi';
import { INVITATION_ERRORS } from '../invitations/dto/invitation-error';
import { JoinedResponse, JoinPendingResponse } from './dto/joined.response';
import { JOIN_ERRORS, JoinErrorBody, joinErrorBody } from './join-errors';

const { invalid, alreadyUsed, expired } = INVITATION_ERRORS;

/** The API document's part for JoiningController; the 500 is the handler's @FailureResponse. */
export const ApiJoinInvitation = () =>
  applyDecorators(
    ApiTags('Invitations: joining'),
    ApiSession(),
    ApiOperation({
      summary: 'The signed-in invitee joins: the invitation is accepted and they become a member of its tenant',
      description:
        'No body is read. The rules run in order and a refusal changes nothing: no session (401); the token (404, 400 as spec 4.2); ' +
        'the session’s e-mail is not the invited address (403, never naming it); `email_verified` present and not true, ' +
        'or absent in cognito mode (403); the caller’s record is in another organisation, or the address belongs to another ' +
        'account (409). Then, in one transaction with the acceptance: the caller’s record (made from the session when there is ' +
        'none) becomes an org user of the tenant with the invitation’s role, or keeps the role they hold in it; an owner’s ' +
        'join makes a pending_owner tenant active. Events: invitation.accepted, member.joined, tenant.activated.',
    }),
    ApiParam({ name: 'token', description: 'The invitation token: the invitation id (a UUID)' }),
    ApiOkResponse({ type: JoinedResponse, description: 'A member of the tenant' }),
    ApiAcceptedResponse({
      type: JoinPendingResponse,
      description:
        'Cognito mode: accepted, and the membership is queued for the user pool, which did not take it yet; it is retried until it does',
    }),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
    ApiErrorResponse(
      HttpStatus.BAD_REQUEST,
      'The invitation is already accepted, or expired',
      [joinErrorBody(alreadyUsed), joinErrorBody(expired)],
      JoinErrorBody,
    ),
    ApiErrorResponse(
      HttpStatus.FORBIDDEN,
      'The session’s e-mail is not the invited address, or is not verified',
      [joinErrorBody(JOIN_ERRORS.emailMismatch), joinErrorBody(JOIN_ERRORS.emailNotVerified)],
      JoinErrorBody,
    ),
    ApiErrorResponse(
      HttpStatus.NOT_FOUND,
      'No such invitation, an empty token, or a revoked one',
      [joinErrorBody(invalid)],
      JoinErrorBody,
    ),
    ApiErrorResponse(
      HttpStatus.CONFLICT,
      'The caller is a member of another organisation, or another account has the address',
      [joinErrorBody(JOIN_ERRORS.memberOfAnotherOrganisation), joinErrorBody(JOIN_ERRORS.emailInUse)],
      JoinErrorBody,
    ),
  );
