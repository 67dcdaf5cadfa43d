import { HttpStatus, Injectable, mixin, PipeTransform, Type } from '@nestjs/common';
import { ApiError } from './api-error';
import { Refusal } from './refusal';
import { validateBody } from './validate-body';

/**
 * validateBody for the routes that refuse as `{success:false, error:CODE}`: the DTO's rules carry
 * codes of `codes` as their messages, and the first failed rule is answered `400` with its code;
 * a body that is not a JSON object, or a rule without a code, is answered with `invalidBody`.
 */
export function validateCodedBody<T extends object>(
  dto: Type<T>,
  body: unknown,
  codes: readonly string[],
  invalidBody: string,
): T {
  try {
    return validateBody(dto, body);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const message = (error.getResponse() as { error: string }).error;
    throw new Refusal(HttpStatus.BAD_REQUEST, codes.includes(message) ? message : invalidBody);
  }
}

/** validateCodedBody as the pipe of a route's `@Body()`: it runs after the guards. */
export function CodedBodyPipe<T extends object>(
  dto: Type<T>,
  codes: readonly string[],
  invalidBody: string,
): Type<PipeTransform> {
  @Injectable()
  class CodedBodyValidationPipe implements PipeTransform {
    transform(body: unknown): T {
      return validateCodedBody(dto, body, codes, invalidBody);
    }
  }
  return mixin(CodedBodyValidationPipe);
}
