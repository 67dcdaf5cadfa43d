import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  HttpStatus,
  Injectable,
  mixin,
  PipeTransform,
  Type,
} from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { ApiError } from './api-error';
import { JSON_BODY_ERRORS, JSON_BODY_LIMIT_BYTES } from './json-body-parser';
import { ApiErrorResponse } from './openapi';

/** validateBody's refusal of a body that is not a JSON object. */
export const NOT_AN_OBJECT = 'Request body must be a JSON object';

/** A DTO rule's pattern for a string that is not blank: some character other than white space. */
export const SOMETHING_VISIBLE = /\S/;

function firstMessage(error: ValidationError): string {
  const constraints = Object.values(error.constraints ?? {});
  if (constraints.length) return constraints[0];
  return error.children?.length ? firstMessage(error.children[0]) : `${error.property} is invalid`;
}

/**
 * Validates a JSON body against a DTO and answers the first failed rule as `400 {error}`.
 * Properties are checked in declaration order and, with `stopAtFirstError`, class-validator
 * runs the decorator nearest the property first: DTOs list their rules bottom-up.
 * Unknown fields are dropped, not refused: the spec names the fields it reads.
 */
export function validateBody<T extends object>(dto: Type<T>, body: unknown): T {
  const plain = body ?? {};
  if (typeof plain !== 'object' || Array.isArray(plain)) {
    throw new ApiError(HttpStatus.BAD_REQUEST, NOT_AN_OBJECT);
  }
  const instance = plainToInstance(dto, plain);
  const errors = validateSync(instance, { whitelist: true, stopAtFirstError: true, forbidUnknownValues: false });
  if (errors.length) throw new ApiError(HttpStatus.BAD_REQUEST, firstMessage(errors[0]));
  return instance;
}

/** Validates `@Body()` or `@Query()` after the guards: for routes where authorisation comes first. */
export function DtoPipe<T extends object>(dto: Type<T>): Type<PipeTransform> {
  @Injectable()
  class DtoValidationPipe implements PipeTransform {
    transform(body: unknown): T {
      return validateBody(dto, body);
    }
  }
  return mixin(DtoValidationPipe);
}

/**
 * Validates the body as a guard: for routes where validation comes before authorisation
 * (spec 4.9), since Nest runs guards before pipes. Replaces the body with the DTO.
 */
export function BodyGuard<T extends object>(dto: Type<T>): Type<CanActivate> {
  @Injectable()
  class DtoBodyGuard implements CanActivate {
    canActivate(context: ExecutionContext): boolean {
      const request = context.switchToHttp().getRequest();
      request.body = validateBody(dto, request.body);
      return true;
    }
  }
  return mixin(DtoBodyGuard);
}

/**
 * The API document's part for a route that reads a JSON body: its own 400 bodies (`description`,
 * `bodies`) beside the refusals of the body parser and of validateBody, the parser's 413 and 415.
 */
export const ApiJsonBody = (description: string, bodies: object[]) =>
  applyDecorators(
    ApiErrorResponse(HttpStatus.BAD_REQUEST, `${description}; or the body is not a JSON object`, [
      ...bodies,
      { error: JSON_BODY_ERRORS.malformed },
      { error: JSON_BODY_ERRORS.tooDeep },
      { error: NOT_AN_OBJECT },
    ]),
    ApiErrorResponse(HttpStatus.PAYLOAD_TOO_LARGE, `The body is over ${JSON_BODY_LIMIT_BYTES / 1024} KB`, [
      { error: JSON_BODY_ERRORS.tooLarge },
    ]),
    ApiErrorResponse(
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      'A JSON body in a charset other than UTF-8, or in an unknown Content-Encoding',
      [{ error: JSON_BODY_ERRORS.notUtf8 }, { error: JSON_BODY_ERRORS.unsupportedEncoding }],
    ),
  );
