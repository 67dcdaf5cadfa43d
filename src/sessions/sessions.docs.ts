/** The API document's part for the session routes (docs/sessions.md); the 500s are the handlers' @FailureResponse. */
import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { FORBIDDEN, USER_NOT_FOUND } from '../common/messages';
import { ApiErrorResponse, ApiSession, UNAUTHORIZED_BODY } from '../common/openapi';
import { SignOutResponse } from './dto/sessions.response';
import { MEMBER_SESSION_MESSAGES, SESSION_ERRORS, SessionErrorBody } from './sessions.messages';

const sessionRoute = (summary: string, description?: string) =>
  applyDecorators(
    ApiTags('Sessions'),
    ApiSession(),
    ApiOperation({ summary, ...(description && { description }) }),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
  );
const noContent = (description: string) => ApiResponse({ status: HttpStatus.NO_CONTENT, description });
const memberParam = () => ApiParam({ name: 'id', description: 'The member’s user id' });
const ORG_REFUSALS = Object.values(MEMBER_SESSION_MESSAGES).map((error) => ({ error }));

export const ApiSignOut = () =>
  applyDecorators(
    ApiTags('Sessions'),
    ApiSession(),
    ApiOperation({
      summary: 'Sign out: end the current session and clear its cookie',
      description:
        'Any caller (no session, or a token without sid: the cookie is cleared all the same). A form post ' +
        '(application/x-www-form-urlencoded, from a browser) is answered 302 to returnTo, or to the OIDC ' +
        'provider’s end-session endpoint. SAML single logout is not offered.',
    }),
    ApiConsumes('application/json', 'application/x-www-form-urlencoded'),
    ApiBody({
      required: false,
      schema: {
        type: 'object',
        properties: { returnTo: { type: 'string', description: 'The returnTo rule of single sign-on; default /' } },
      },
    }),
    noContent('Signed out; Set-Cookie clears the session cookie'),
    ApiResponse({
      status: HttpStatus.OK,
      type: SignOutResponse,
      description: 'Signed out here; the session came from an OIDC provider that offers RP-Initiated Logout',
    }),
    ApiResponse({ status: HttpStatus.FOUND, description: 'A form post: on to returnTo or the provider' }),
    ApiErrorResponse(
      HttpStatus.BAD_REQUEST,
      'returnTo refused',
      [{ success: false, error: SESSION_ERRORS.returnRefused }],
      SessionErrorBody,
    ),
  );

export const ApiMySessions = (type: unknown) =>
  applyDecorators(
    sessionRoute('The caller’s live sessions, newest first'),
    ApiResponse({ status: HttpStatus.OK, type: type as never, description: 'The sessions' }),
  );

export const ApiRevokeMySessions = () =>
  applyDecorators(
    sessionRoute(
      'Sign out everywhere: end every session of the caller’s',
      'Also sets a "not before": a token without sid (the portal’s, a user pool’s) issued earlier is refused from then on; in cognito mode the pool’s refresh tokens are revoked too.',
    ),
    noContent('Every session ended'),
  );

export const ApiRevokeMySession = () =>
  applyDecorators(
    sessionRoute('End one of the caller’s sessions'),
    ApiParam({ name: 'id', description: 'The session’s id' }),
    noContent('Ended'),
    ApiErrorResponse(
      HttpStatus.NOT_FOUND,
      'No live session of the caller’s has this id',
      [{ success: false, error: SESSION_ERRORS.notFound }],
      SessionErrorBody,
    ),
  );

export const ApiMemberSessions = (type: unknown) =>
  applyDecorators(
    sessionRoute('A member’s live sessions (permission sessions:revoke)'),
    memberParam(),
    ApiResponse({ status: HttpStatus.OK, type: type as never, description: 'The sessions' }),
    ApiErrorResponse(HttpStatus.FORBIDDEN, 'Not allowed', ORG_REFUSALS),
    ApiErrorResponse(HttpStatus.NOT_FOUND, 'No such member of the organisation', [{ error: USER_NOT_FOUND }]),
  );

export const ApiRevokeMemberSessions = () =>
  applyDecorators(
    sessionRoute('End every session of a member and set their "not before" (permission sessions:revoke)'),
    memberParam(),
    noContent('Ended'),
    ApiErrorResponse(HttpStatus.FORBIDDEN, 'Not allowed', [
      ...ORG_REFUSALS,
      { error: SESSION_ERRORS.adminCannotRevokeOwner },
    ]),
    ApiErrorResponse(HttpStatus.NOT_FOUND, 'No such member of the organisation', [{ error: USER_NOT_FOUND }]),
  );

export const ApiRevokeUserSessions = () =>
  applyDecorators(
    ApiTags('Sessions'),
    ApiSession(),
    ApiOperation({ summary: 'End every session of a user and set their "not before" (super-admins)' }),
    ApiParam({ name: 'id', description: 'The user’s id' }),
    noContent('Ended'),
    ApiErrorResponse(HttpStatus.FORBIDDEN, 'Not a super-admin, or no session', [{ error: FORBIDDEN }]),
    ApiErrorResponse(HttpStatus.NOT_FOUND, 'No such user', [{ error: USER_NOT_FOUND }]),
  );
