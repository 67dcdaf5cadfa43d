import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, ErrorBody, UNAUTHORIZED_BODY } from '../api-docs/api-docs';
import { ApiJsonBody } from '../common/validate-body';
import { EMAIL_REQUIRED, USER_NOT_FOUND } from '../common/messages';
import { RATE_LIMITED } from '../rate-limit/rate-limit.module';
import { InviteMemberResponse, RemoveMemberResponse } from './dto/invitation.response';
import { INVITE_ERRORS, REMOVE_MEMBER_ERRORS } from './org-members.messages';

/**
 * The API document's part for OrgMembersController (spec 4.9 and 4.10), kept here so that the
 * handlers read as one line each. The 500s are the handlers' @FailureResponse.
 */
export const ApiOrgMembers = () =>
  applyDecorators(ApiTags('Organisation members'), ApiSession(), ApiErrorResponse(401, 'No session', [UNAUTHORIZED_BODY]));

export const ApiInviteMember = () =>
  applyDecorators(
    ApiOperation({ summary: 'Invite an e-mail address to the caller’s organisation (spec 4.9)' }),
    ApiOkResponse({ type: InviteMemberResponse }),
    ApiJsonBody('Invalid body, or already a member', [
      { error: EMAIL_REQUIRED },
      { error: INVITE_ERRORS.invalidEmail },
      { error: INVITE_ERRORS.invalidRole },
      { error: INVITE_ERRORS.alreadyMember },
    ]),
    ApiErrorResponse(403, 'Not an owner or admin of an organisation', [
      { error: INVITE_ERRORS.notOrgUser },
      { error: INVITE_ERRORS.notOwnerOrAdmin },
    ]),
    ApiErrorResponse(429, 'Over the per-user invitation limit (10 per hour by default)', [{ error: RATE_LIMITED }], ErrorBody, {
      'Retry-After': { description: 'Seconds until the caller may invite again', schema: { type: 'integer', minimum: 0 } },
    }),
  );

export const ApiRemoveMember = () =>
  applyDecorators(
    ApiOperation({ summary: 'Remove a member from the caller’s organisation (spec 4.10)' }),
    ApiParam({ name: 'id', description: 'User id of the member to remove' }),
    ApiOkResponse({ type: RemoveMemberResponse }),
    ApiErrorResponse(400, 'The caller named themselves', [{ error: REMOVE_MEMBER_ERRORS.cannotRemoveSelf }]),
    ApiErrorResponse(403, 'Not allowed to remove this user', [
      { error: REMOVE_MEMBER_ERRORS.notOrgUser },
      { error: REMOVE_MEMBER_ERRORS.notOwnerOrAdmin },
      { error: REMOVE_MEMBER_ERRORS.notInOrganisation },
      { error: REMOVE_MEMBER_ERRORS.adminCannotRemoveOwner },
    ]),
    ApiErrorResponse(404, 'No such user', [{ error: USER_NOT_FOUND }]),
  );
