import { HttpStatus, Injectable, mixin, PipeTransform, Type } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { validateBody } from '../../common/validate-body';
import { ROLE_ERRORS, RoleErrorCode, roleRefusal } from '../../permissions/role-errors';

const CODES = new Set<string>(Object.values(ROLE_ERRORS));

/**
 * Validates `@Body()` against a DTO whose rules carry ROLE_ERRORS codes as their messages, as
 * DtoPipe does, and answers the first failed rule as `400 {success:false, error:CODE}`; a body
 * that is not a JSON object is INVALID_BODY.
 */
export function RoleBodyPipe<T extends object>(dto: Type<T>): Type<PipeTransform> {
  @Injectable()
  class RoleBodyValidationPipe implements PipeTransform {
    transform(body: unknown): T {
      try {
        return validateBody(dto, body);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const message = (error.getResponse() as { error: string }).error;
        throw roleRefusal(
          HttpStatus.BAD_REQUEST,
          CODES.has(message) ? (message as RoleErrorCode) : ROLE_ERRORS.invalidBody,
        );
      }
    }
  }
  return mixin(RoleBodyValidationPipe);
}
