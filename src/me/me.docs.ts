import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, UNAUTHORIZED_BODY } from '../common/openapi';

/** A documented answer. */
const ok = (status: number, type: unknown, description: string) =>
  ApiResponse({ status, type: type as never, description });

export const ApiMe = () =>
  applyDecorators(
    ApiTags('Signed-in person'),
    ApiSession(),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
  );

export const ApiGetMe = (type: unknown) =>
  applyDecorators(
    ApiOperation({
      summary: 'The signed-in user and their organisation, from the store as it is now',
      description:
        'emailVerified: the session’s email_verified claim is present and true; in cognito mode the user’s email_verified attribute.',
    }),
    ok(HttpStatus.OK, type, 'The user'),
  );

export const ApiMyInvitations = (type: unknown) =>
  applyDecorators(
    ApiOperation({
      summary: 'Pending, unexpired invitations to the session’s e-mail, when it is verified (else empty)',
    }),
    ok(HttpStatus.OK, type, 'The invitations'),
  );
