import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { HeaderObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { NOT_ORG_USER, NOT_OWNER_OR_ADMIN_FOR_INVITATIONS } from '../common/messages';
import { ApiErrorResponse, ApiSession, UNAUTHORIZED_BODY } from '../common/openapi';
import { InviteQuotaResponse } from './dto/invite-quota.response';
import { RATE_LIMIT_HEADERS } from './invite-throttler.guard';

/**
 * Issue 12's shared rules: the organisation check of spec 4.10, then owner or admin. The quota is
 * the invitations' (the invite and the resend spend it): the invitation routes' message.
 */
export const INVITE_QUOTA_ERRORS = {
  notOrgUser: NOT_ORG_USER,
  notOwnerOrAdmin: NOT_OWNER_OR_ADMIN_FOR_INVITATIONS,
  readFailed: 'Failed to read the invitation quota',
} as const;

/** The three fields; `required: false` where an answer may come without them (a replay, which reaches no limiter). */
const rateLimitHeaders = (required: boolean): Record<string, HeaderObject> => {
  const field = (description: string): HeaderObject => ({
    description,
    required,
    schema: { type: 'integer', minimum: 0 },
  });
  return {
    [RATE_LIMIT_HEADERS.limit]: field(
      'Invitations allowed per window (INVITE_RATE_LIMIT), shared by the invite and the resend',
    ),
    [RATE_LIMIT_HEADERS.remaining]: field('Invitations the caller may still send now'),
    [RATE_LIMIT_HEADERS.reset]: field(
      'Seconds until the quota is whole again: the window ends, or, after a 429, the refusal does',
    ),
  };
};

/** A success's headers: every answer that reached the limit has them; an Idempotency-Key replay does not. */
export const RATE_LIMIT_RESPONSE_HEADERS = rateLimitHeaders(false);

/** A 429's headers: the three fields, and Retry-After (equal to RateLimit-Reset). */
export const RATE_LIMITED_RESPONSE_HEADERS: Record<string, HeaderObject> = {
  'Retry-After': { description: 'Seconds until the caller may invite again', schema: { type: 'integer', minimum: 0 } },
  ...rateLimitHeaders(true),
};

export const ApiInviteQuota = () =>
  applyDecorators(
    ApiTags('Organisation invitations'),
    ApiSession(),
    ApiOperation({
      summary:
        'The caller’s invitation quota (invites and resends share it), as the next one would find it; reading it counts nothing',
    }),
    ApiOkResponse({ type: InviteQuotaResponse }),
    ApiErrorResponse(401, 'No session', [UNAUTHORIZED_BODY]),
    ApiErrorResponse(403, 'Not an owner or admin of an organisation', [
      { error: INVITE_QUOTA_ERRORS.notOrgUser },
      { error: INVITE_QUOTA_ERRORS.notOwnerOrAdmin },
    ]),
  );
