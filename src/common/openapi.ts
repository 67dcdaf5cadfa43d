import { applyDecorators, SetMetadata, Type } from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiExtension,
  ApiExtraModels,
  ApiProperty,
  ApiResponse,
  ApiResponseOptions,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { HeaderObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { FORBIDDEN, UNAUTHORIZED } from './messages';

/**
 * What routes declare for the OpenAPI document (api-docs builds it): error bodies and responses,
 * and how a route is reached, with the session cookie or without credentials.
 */

/** The security scheme of the session cookie (SESSION_COOKIE_NAME). */
export const SESSION_SCHEME = 'session';

/** The security scheme of the /api/setup routes (docs/setup-links.md): the setup session's cookie, of this name. */
export const SETUP_SESSION_SCHEME = 'setupSession';
export const SETUP_SESSION_COOKIE = 'setup_session';

/** The security scheme of the SCIM routes (docs/scim.md): `Authorization: Bearer <secret>`. */
export const SCIM_BEARER_SCHEME = 'scimBearer';

/** Spec section 7: the error body of the admin and org routes. */
export class ErrorBody {
  @ApiProperty({ example: FORBIDDEN, minLength: 1 })
  error: string;
}

/** Spec section 7: the 500 body of the super-admin and user routes. */
export class ErrorWithDetailsBody extends ErrorBody {
  @ApiProperty({ description: 'The message of the underlying failure' })
  details: string;
}

/** An error response with its exact bodies as examples; `headers` are those beside X-Request-Id. */
export function errorResponse(
  status: number | 'default',
  description: string,
  bodies: object[],
  type: Type<unknown> = ErrorBody,
  headers?: Record<string, HeaderObject>,
): ApiResponseOptions {
  const examples = Object.fromEntries(
    bodies.map((body) => {
      const summary = String((body as { error?: unknown }).error ?? JSON.stringify(body));
      return [summary, { summary, value: body }];
    }),
  );
  return { status, description, type, examples, ...(headers && { headers }) };
}

/**
 * One error status of an operation, with the exact bodies the spec gives for it as examples
 * (test/api-docs.e2e-spec.ts checks them against the spec's bodies). When the operation (or its
 * controller) documents that status already with another schema (a route's refusals beside the
 * Idempotency-Key's `{error}`), the status's schema is either one (`anyOf`), so that every example
 * matches it.
 */
export function ApiErrorResponse(...args: Parameters<typeof errorResponse>): MethodDecorator & ClassDecorator {
  const response = errorResponse(...args);
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const route: object = descriptor?.value ?? target;
    const status = String(response.status);
    const byStatus = schemaTypes.get(route) ?? new Map<string, Type<unknown>[]>();
    schemaTypes.set(route, byStatus);
    const types = [...new Set([...(byStatus.get(status) ?? []), args[3] ?? ErrorBody])];
    byStatus.set(status, types);
    const decorator =
      types.length === 1
        ? ApiResponse(response)
        : applyDecorators(
            ApiExtraModels(...types),
            ApiResponse({
              ...response,
              type: undefined,
              schema: { anyOf: types.map((type) => ({ $ref: getSchemaPath(type) })) },
            }),
          );
    decorator(target as never, key as never, descriptor as never);
  };
}

/** The schemas that each route (a handler, or a controller) documents each error status with. */
const schemaTypes = new WeakMap<object, Map<string, Type<unknown>[]>>();

/** Routes behind the session cookie. */
export const ApiSession = () => ApiCookieAuth(SESSION_SCHEME);

/** A route opened by the setup session alone (docs/setup-links.md). */
export const ApiSetupSession = () => ApiCookieAuth(SETUP_SESSION_SCHEME);

/** @ApiSecurity's metadata key: @nestjs/swagger exports no constant for it, and @ApiSecurity can only add requirements. */
const API_SECURITY_METADATA = 'swagger/apiSecurity';

/** Public routes: `security: []`, so that clients send no credentials and linters know it is meant. */
export const ApiPublic = () => SetMetadata(API_SECURITY_METADATA, []);

/** Spec sections 5 and 7: the bodies of a failed session or role check. */
export const UNAUTHORIZED_BODY = { error: UNAUTHORIZED };
export const FORBIDDEN_BODY = { error: FORBIDDEN };

/** The extension that marks a browser's route (an HTML page, a redirect, a form POST): not for API clients. */
export const BROWSER_ROUTE_EXTENSION = 'x-browser-route';

/** A public route that a browser opens: marked `x-browser-route: true` in the document. */
export const ApiBrowserRoute = () => applyDecorators(ApiPublic(), ApiExtension(BROWSER_ROUTE_EXTENSION, true));

/** A route for operators (probes, metrics): public, tagged Operations. */
export const ApiOperationalRoute = () => applyDecorators(ApiTags('Operations'), ApiPublic());
