import { HttpException, HttpStatus, Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/**
 * `{success:false, error:CODE}`: the refusals of spec 4.2 (POST /api/invitations/{token}), and the
 * shape that the routes beyond the spec answer theirs with (joins, domains, join requests, /api/me):
 * a machine-readable code that a client switches on. Each module declares its codes once, beside
 * its messages, and builds its body, exception and schema here.
 */
export interface RefusalBody<Code extends string = string> {
  success: false;
  error: Code;
}

export const refusalBody = <Code extends string>(error: Code): RefusalBody<Code> => ({ success: false, error });

/** A refusal, answered as it is (the exception filter passes such bodies through). */
export class Refusal<Code extends string = string> extends HttpException {
  constructor(status: HttpStatus, error: Code) {
    super(refusalBody(error), status);
  }
}

/**
 * The OpenAPI schema of a module's refusals, a component named `name`: `success` false and `error`
 * one of `codes`, both required.
 */
export function refusalSchema(name: string, codes: readonly string[]): Type<RefusalBody> {
  const schema = class {};
  Object.defineProperty(schema, 'name', { value: name });
  ApiProperty({ type: 'boolean', enum: [false] })(schema.prototype, 'success');
  ApiProperty({ type: 'string', enum: [...new Set(codes)] })(schema.prototype, 'error');
  return schema as Type<RefusalBody>;
}
