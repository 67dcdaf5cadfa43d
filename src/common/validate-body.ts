import { CanActivate, ExecutionContext, HttpStatus, Injectable, mixin, PipeTransform, Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { ApiError } from './api-error';

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
    throw new ApiError(HttpStatus.BAD_REQUEST, 'Request body must be a JSON object');
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
