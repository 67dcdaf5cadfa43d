import { HttpStatus, Injectable, mixin, PipeTransform, Type } from '@nestjs/common';
import { ApiError } from './api-error';
import { Refusal } from './refusal';
import { NOT_AN_OBJECT, validateBody } from './validate-body';

/*
 * validateBody for the routes that refuse as `{success:false, error:CODE}`, the first failed rule
 * answered 400 in that shape, and the pipes that run it on a route's `@Body()` after the guards.
 */

/** validateBody, its refusal (the first failed rule's message, or NOT_AN_OBJECT) made `refusal`'s. */
function validateAs<T extends object>(dto: Type<T>, body: unknown, refusal: (message: string) => Refusal): T {
  try {
    return validateBody(dto, body);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw refusal((error.getResponse() as { error: string }).error);
  }
}

/**
 * The DTO's rules carry codes of `codes` as their messages, and the first failed rule is answered
 * with its code; a body that is not a JSON object, or a rule without a code, with `invalidBody`.
 */
export function validateCodedBody<T extends object>(
  dto: Type<T>,
  body: unknown,
  codes: readonly string[],
  invalidBody: string,
): T {
  return validateAs(
    dto,
    body,
    (message) => new Refusal(HttpStatus.BAD_REQUEST, codes.includes(message) ? message : invalidBody),
  );
}

/**
 * For a body refused with one code and, in `reason`, the check that failed (single sign-on's
 * `{success:false, error, reason}`): the DTO's rules carry reasons as their messages; a body that
 * is not a JSON object, or none at all, is answered with `notAnObject`.
 */
export function validateReasonedBody<T extends object>(
  dto: Type<T>,
  body: unknown,
  error: string,
  notAnObject: string,
): T {
  const refusal = (message: string) =>
    new Refusal(HttpStatus.BAD_REQUEST, error, { reason: message === NOT_AN_OBJECT ? notAnObject : message });
  // validateBody would read a missing body as an empty object.
  if (body === undefined || body === null) throw refusal(NOT_AN_OBJECT);
  return validateAs(dto, body, refusal);
}

/** A pipe of `@Body()` that answers `validate`'s value: it runs after the guards. */
function bodyPipe<T>(validate: (body: unknown) => T): Type<PipeTransform> {
  @Injectable()
  class BodyValidationPipe implements PipeTransform {
    transform(body: unknown): T {
      return validate(body);
    }
  }
  return mixin(BodyValidationPipe);
}

/** validateCodedBody as the pipe of a route's `@Body()`. */
export const CodedBodyPipe = <T extends object>(dto: Type<T>, codes: readonly string[], invalidBody: string) =>
  bodyPipe((body) => validateCodedBody(dto, body, codes, invalidBody));

/** validateReasonedBody as the pipe of a route's `@Body()`. */
export const ReasonedBodyPipe = <T extends object>(dto: Type<T>, error: string, notAnObject: string) =>
  bodyPipe((body) => validateReasonedBody(dto, body, error, notAnObject));
