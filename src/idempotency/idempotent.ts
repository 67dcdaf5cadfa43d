import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { HeaderObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiErrorResponse } from '../common/openapi';
import { IdempotentHandler } from './idempotent-handler';
import { IDEMPOTENCY_ERRORS, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency.messages';

/**
 * Makes a route safe to retry with an Idempotency-Key: its answers are stored and replayed. The
 * route also lists IdempotencyGuard among its guards, where the key is to be checked: after
 * authorisation, before the rate limit (so that a replay spends no quota). Documents the header,
 * the 409 and the 422; the route's 400 lists IDEMPOTENCY_ERRORS.invalidKey beside its own.
 */
export const Idempotent = () =>
  applyDecorators(
    IdempotentHandler(),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Makes a retry safe: the same key from the same caller with the same request, within 24 hours, gets the first answer again ' +
        `(same status and body, with ${IDEMPOTENT_REPLAYED_HEADER}: true) and does nothing more: no second invitation, e-mail or quota. ` +
        'Successes and 4xx answers are kept; 429 and 5xx are not (retry them with the same key).',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
    }),
    ApiErrorResponse(
      HttpStatus.CONFLICT,
      'The first request with this Idempotency-Key is still working (after a wait of 5 seconds)',
      [{ error: IDEMPOTENCY_ERRORS.inProgress }],
    ),
    ApiErrorResponse(
      HttpStatus.UNPROCESSABLE_ENTITY,
      'This Idempotency-Key was used with another request (method, path or body)',
      [{ error: IDEMPOTENCY_ERRORS.reusedKey }],
    ),
  );

/** The success's header on a replay; absent on the first answer. */
export const IDEMPOTENT_REPLAY_RESPONSE_HEADERS: Record<string, HeaderObject> = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: 'Present, `true`, when this is the stored answer of an earlier request with the same Idempotency-Key',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};
