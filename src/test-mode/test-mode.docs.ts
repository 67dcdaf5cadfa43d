import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiPublic, UNAUTHORIZED_BODY } from '../common/openapi';
import { ApiJsonBody } from '../common/validate-body';
import { ClockResponse, MailboxResponse, RemovedTenantsResponse, TestSessionResponse } from './dto/test-mode.responses';
import { TEST_MODE_KEY_HEADER } from './test-mode.guard';
import { TEST_MODE_ERRORS } from './test-mode.messages';

/**
 * The API document's part for TestModeController (docs/test-mode.md). Served only when TEST_MODE=true:
 * the committed openapi.json, written without it, has none of these routes.
 */
export const ApiTestMode = () =>
  applyDecorators(
    ApiTags('Test mode'),
    ApiPublic(),
    ApiHeader({ name: TEST_MODE_KEY_HEADER, required: true, description: 'TEST_MODE_KEY' }),
    ApiErrorResponse(401, 'The header is missing or does not match TEST_MODE_KEY', [UNAUTHORIZED_BODY]),
  );

export const ApiReadMailbox = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The invitation e-mails to an address, newest first, from the outbox; event test.mailbox_read',
    }),
    ApiOkResponse({ type: MailboxResponse }),
    ApiErrorResponse(400, 'to is not an e-mail address', [{ error: TEST_MODE_ERRORS.toRequired }]),
  );

export const ApiIssueTestSession = () =>
  applyDecorators(
    ApiOperation({
      summary: 'A session token and its cookie, as session:token gives (local mode only); event test.session_issued',
    }),
    ApiOkResponse({ type: TestSessionResponse }),
    ApiJsonBody('Neither userId nor sub and email, or cognito mode', [
      { error: TEST_MODE_ERRORS.sessionSubject },
      { error: TEST_MODE_ERRORS.sessionsNeedLocalStore },
    ]),
    ApiErrorResponse(404, 'No user with this userId', [{ error: 'User not found' }]),
  );

export const ApiChangeClock = () =>
  applyDecorators(
    ApiOperation({
      summary:
        "Moves the service's clock forward (the invitation limit's windows with it), or back to " +
        'the real time, on every instance; event test.clock_moved',
    }),
    ApiOkResponse({ type: ClockResponse }),
    ApiJsonBody('Neither or both of advanceSeconds and reset', [{ error: TEST_MODE_ERRORS.clockChange }]),
  );

export const ApiClearRateLimits = () =>
  applyDecorators(
    ApiOperation({ summary: 'Empties every invitation counter; event test.rate_limits_cleared' }),
    ApiNoContentResponse({ description: 'Emptied' }),
  );

export const ApiRemoveTenants = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Deletes the tenants named namePrefix… with their rows, in batches; event test.tenants_removed',
    }),
    ApiOkResponse({ type: RemovedTenantsResponse }),
    ApiErrorResponse(400, 'namePrefix is missing or too long', [{ error: TEST_MODE_ERRORS.namePrefixRequired }]),
  );
