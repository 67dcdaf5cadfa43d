import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CSV_NOT_UTF8, JSON_BODY_ERRORS } from '../common/json-body-parser';
import { ApiErrorResponse, ApiSession, UNAUTHORIZED_BODY } from '../common/openapi';
import { IDEMPOTENT_REPLAY_RESPONSE_HEADERS } from '../idempotency/idempotent';
import { IDEMPOTENCY_ERRORS } from '../idempotency/idempotency.messages';
import { RATE_LIMIT_RESPONSE_HEADERS } from '../rate-limit/invite-quota.docs';
import { BulkInvitationsRequest, BulkInvitationsResponse } from './dto/bulk-invitations.dto';
import { BULK_INVITATION_ERRORS } from './bulk-invitations.messages';

const CSV_EXAMPLE = 'email,role\nann@example.com,member\n"bob@example.com",admin\n';

/** The API document's part for BulkInvitationsController. The 500 is the handler's @FailureResponse. */
export const ApiBulkInvitations = () =>
  applyDecorators(
    ApiTags('Organisation invitations'),
    ApiSession(),
    ApiOperation({
      summary: 'Invite many addresses at once (owner or admin), with one answer per row; optionally a dry run',
      description:
        'Each row is checked on its own, as the invite checks one, then against the earlier rows, the organisation’s members and its ' +
        'pending invitations (addresses compared as everywhere in the service). Each created row spends one of the caller’s ' +
        'invitations (the invite’s and the resend’s limit); rows beyond what is left are `rate_limited`, and nothing else is refused. ' +
        'A request that creates nothing spends nothing. A dry run answers what the request would do now and stores, sends and spends ' +
        'nothing. Rows are stored up to 50 to a transaction: a row is either fully created (invitation, e-mail, audit event) or `failed`.',
      // Set here rather than with ApiBody, which gives every media type the one schema.
      requestBody: {
        required: true,
        description:
          'JSON; or CSV in UTF-8 (a byte order mark, CRLF or LF, and quoted fields with commas are accepted; cells are trimmed)',
        content: {
          'application/json': { schema: { $ref: getSchemaPath(BulkInvitationsRequest) } },
          'text/csv': {
            schema: {
              type: 'string',
              description:
                'A header naming the columns `email` and `role` (any order, any case), then one row per invitation',
            },
            example: CSV_EXAMPLE,
          },
        },
      },
    }),
    ApiExtraModels(BulkInvitationsRequest),
    ApiQuery({
      name: 'dryRun',
      required: false,
      enum: ['true', 'false'],
      description: 'A dry run, for a CSV body (a JSON body may say `"dryRun": true`)',
    }),
    ApiOkResponse({
      type: BulkInvitationsResponse,
      headers: { ...RATE_LIMIT_RESPONSE_HEADERS, ...IDEMPOTENT_REPLAY_RESPONSE_HEADERS },
    }),
    ApiErrorResponse(HttpStatus.BAD_REQUEST, 'Not a list of rows, an empty one, a malformed body or Idempotency-Key', [
      { error: BULK_INVITATION_ERRORS.notAList },
      { error: BULK_INVITATION_ERRORS.empty },
      { error: BULK_INVITATION_ERRORS.invalidDryRun },
      { error: BULK_INVITATION_ERRORS.csvHeader },
      { error: `${BULK_INVITATION_ERRORS.malformedCsv}: A quoted field is not closed` },
      { error: JSON_BODY_ERRORS.malformed },
      { error: IDEMPOTENCY_ERRORS.invalidKey },
    ]),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
    ApiErrorResponse(HttpStatus.FORBIDDEN, 'Not an owner or admin of an organisation', [
      { error: BULK_INVITATION_ERRORS.notOrgUser },
      { error: BULK_INVITATION_ERRORS.notOwnerOrAdmin },
    ]),
    ApiErrorResponse(
      HttpStatus.PAYLOAD_TOO_LARGE,
      'More rows than BULK_INVITE_MAX_ROWS (100 by default), or a body over 100 KB',
      [{ error: BULK_INVITATION_ERRORS.tooMany(100) }, { error: JSON_BODY_ERRORS.tooLarge }],
    ),
    ApiErrorResponse(
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      'A body in a charset other than UTF-8, or in an unknown Content-Encoding',
      [{ error: JSON_BODY_ERRORS.notUtf8 }, { error: CSV_NOT_UTF8 }, { error: JSON_BODY_ERRORS.unsupportedEncoding }],
    ),
  );
