import { PipeTransform, Type } from '@nestjs/common';
import { CodedBodyPipe } from '../../common/coded-body';
import { ROLE_ERRORS } from '../../permissions/role-errors';

const CODES = Object.values(ROLE_ERRORS);

/**
 * Validates `@Body()` against a DTO whose rules carry ROLE_ERRORS codes as their messages: the
 * first failed rule as `400 {success:false, error:CODE}`; a body that is not a JSON object is INVALID_BODY.
 */
export function RoleBodyPipe<T extends object>(dto: Type<T>): Type<PipeTransform> {
  return CodedBodyPipe(dto, CODES, ROLE_ERRORS.invalidBody);
}
