import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, ErrorBody, UNAUTHORIZED_BODY } from '../common/openapi';
import { ApiPagingErrors } from '../common/paging';
import { ApiJsonBody } from '../common/validate-body';
import { EMAIL_REQUIRED, USER_NOT_FOUND } from '../common/messages';
import { IDEMPOTENT_REPLAY_RESPONSE_HEADERS } from '../idempotency/idempotent';
import { IDEMPOTENCY_ERRORS } from '../idempotency/idempotency.messages';
import { InviteMemberResponse } from '../invitations/dto/created-invitation.response';
import { RATE_LIMIT_RESPONSE_HEADERS, RATE_LIMITED_RESPONSE_HEADERS } from '../rate-limit/invite-quota.docs';
import { RATE_LIMITED } from '../rate-limit/rate-limit.module';
import { ChangeRoleResponse, ListMembersResponse, RemoveMemberResponse } from './dto/member.response';
import { INVITE_ERRORS, MEMBER_ERRORS, REMOVE_MEMBER_ERRORS } from './org-members.messages';

/**
 * The API document's part for OrgMembersController (spec 4.9 and 4.10), kept here so that the
 * handlers read as one line each. The 500s are the handlers' @FailureResponse.
 */
export const ApiOrgMembers = () =>
  applyDecorators(
    ApiTags('Organisation members'),
    ApiSession(),
    ApiErrorResponse(401, 'No session', [UNAUTHORIZED_BODY]),
  );

export const ApiInviteMember = () =>
  applyDecorators(
    ApiOperation({ summary: 'Invite an e-mail address to the caller’s organisation (spec 4.9)' }),
    ApiOkResponse({
      type: InviteMemberResponse,
      headers: { ...RATE_LIMIT_RESPONSE_HEADERS, ...IDEMPOTENT_REPLAY_RESPONSE_HEADERS },
    }),
    ApiJsonBody('Invalid body, already a member, or a malformed Idempotency-Key', [
      { error: EMAIL_REQUIRED },
      { error: INVITE_ERRORS.invalidEmail },
      { error: INVITE_ERRORS.invalidRole },
      { error: INVITE_ERRORS.alreadyMember },
      { error: IDEMPOTENCY_ERRORS.invalidKey },
    ]),
    ApiErrorResponse(403, 'Not an owner or admin of an organisation', [
      { error: INVITE_ERRORS.notOrgUser },
      { error: INVITE_ERRORS.notOwnerOrAdmin },
    ]),
    ApiErrorResponse(
      429,
      'Over the per-user invitation limit (10 per hour by default)',
      [{ error: RATE_LIMITED }],
      ErrorBody,
      RATE_LIMITED_RESPONSE_HEADERS,
    ),
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

export const ApiListMembers = () =>
  applyDecorators(
    ApiOperation({ summary: 'The users of the caller’s organisation, by e-mail then id, a page at a time (any role)' }),
    ApiOkResponse({ type: ListMembersResponse }),
    ApiPagingErrors(),
    ApiErrorResponse(403, 'Not a user of an organisation', [{ error: MEMBER_ERRORS.notOrgUser }]),
  );

export const ApiChangeMemberRole = () =>
  applyDecorators(
    ApiOperation({ summary: 'Change the role of a user of the caller’s organisation (owner or admin)' }),
    ApiParam({ name: 'id', description: 'User id of the member' }),
    ApiOkResponse({ type: ChangeRoleResponse }),
    ApiJsonBody('Invalid role, or the caller named themselves', [
      { error: MEMBER_ERRORS.invalidRole },
      { error: MEMBER_ERRORS.cannotChangeOwnRole },
    ]),
    ApiErrorResponse(403, 'Not allowed to change this role', [
      { error: MEMBER_ERRORS.notOrgUser },
      { error: MEMBER_ERRORS.notOwnerOrAdmin },
      { error: MEMBER_ERRORS.adminCannotChangeOwner },
      { error: MEMBER_ERRORS.onlyOwnersGrantOwner },
    ]),
    ApiErrorResponse(404, 'No such user in the organisation', [{ error: USER_NOT_FOUND }]),
  );
