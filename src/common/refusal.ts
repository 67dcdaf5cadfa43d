import { HttpException, HttpStatus, Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';

/**
 * `{success:false, error:CODE}`: the refusals of spec 4.2 (POST /api/invitations/{token}), and the
 * shape that the routes beyond the spec answer theirs with (joins, domains, join requests, /api/me,
 * roles): a machine-readable code that a client switches on, and after it, for some modules, what
 * the code is about (a role, a count). Each module declares its codes once, beside its messages,
 * and builds its body, exception and schema here.
 */
export type RefusalBody<Code extends string = string, Details extends object = object> = {
  success: false;
  error: Code;
} & Details;

export const refusalBody = <Code extends string, Details extends object = object>(
  error: Code,
  details?: Details,
): RefusalBody<Code, Details> => ({ success: false, error, ...details }) as RefusalBody<Code, Details>;

/** A refusal, answered as it is (the exception filter passes such bodies through). */
export class Refusal<Code extends string = string> extends HttpException {
  constructor(status: HttpStatus, error: Code, details?: object) {
    super(refusalBody(error, details), status);
  }
}

/**
 * The OpenAPI schema of a module's refusals, a component named `name`: `success` false and `error`
 * one of `codes`, both required; then `details`, the optional fields some refusals add.
 */
export function refusalSchema(
  name: string,
  codes: readonly string[],
  details: Record<string, ApiPropertyOptions> = {},
): Type<RefusalBody> {
  const schema = class {};
  Object.defineProperty(schema, 'name', { value: name });
  ApiProperty({ type: 'boolean', enum: [false] })(schema.prototype, 'success');
  ApiProperty({ type: 'string', enum: [...new Set(codes)] })(schema.prototype, 'error');
  for (const [property, options] of Object.entries(details)) ApiPropertyOptional(options)(schema.prototype, property);
  return schema as Type<RefusalBody>;
}
