import { Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiCookieAuth, ApiProperty, ApiResponse, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { version } from '../../package.json';
import { FORBIDDEN, UNAUTHORIZED } from '../common/messages';
import { AppConfig } from '../config/app-config';

export const API_DOCS_PATH = '/api/docs';
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';
/** The security scheme of the session cookie (SESSION_COOKIE_NAME). */
export const SESSION_SCHEME = 'session';

/** Spec section 7: the error body of the admin and org routes. */
export class ErrorBody {
  @ApiProperty({ example: FORBIDDEN })
  error: string;
}

/** Spec section 7: the 500 body of the super-admin and user routes. */
export class ErrorWithDetailsBody extends ErrorBody {
  @ApiProperty({ description: 'The message of the underlying failure' })
  details: string;
}

/**
 * One error status of an operation, with the exact bodies the spec gives for it as examples
 * (test/api-docs.e2e-spec.ts checks them against the spec's bodies).
 */
export function ApiErrorResponse(status: number, description: string, bodies: object[], type: Type<unknown> = ErrorBody) {
  const examples = Object.fromEntries(
    bodies.map((body) => {
      const summary = String((body as { error?: unknown }).error ?? JSON.stringify(body));
      return [summary, { summary, value: body }];
    }),
  );
  return ApiResponse({ status, description, type, examples });
}

/** Routes behind the session cookie. */
export const ApiSession = () => ApiCookieAuth(SESSION_SCHEME);

/** Spec section 5 and CONTRACT: the bodies of a failed session or role check. */
export const UNAUTHORIZED_BODY = { error: UNAUTHORIZED };
export const FORBIDDEN_BODY = { error: FORBIDDEN };

/**
 * The OpenAPI 3 document, built from the controllers' decorators. The repository holds a copy,
 * openapi.json (`npm run openapi:write`), which a test keeps equal to this.
 */
export function buildOpenApiDocument(app: NestExpressApplication, config: AppConfig): OpenAPIObject {
  const options = new DocumentBuilder()
    .setTitle('Tenant invitation and administration service')
    .setDescription(
      'Invitations, tenants, super-administrators and organisation members. Signed-in routes read the ' +
        `session id token from the \`${config.sessionCookieName}\` cookie. Every response carries an ` +
        '`X-Request-Id` header (taken from the request when sane) that the service also logs.',
    )
    .setVersion(version)
    .addCookieAuth(
      config.sessionCookieName,
      { type: 'apiKey', in: 'cookie', description: 'The session id token (a JWT)' },
      SESSION_SCHEME,
    )
    .build();
  return SwaggerModule.createDocument(app, options, {
    // Handler names are unique across the API: they make readable operation ids.
    operationIdFactory: (_controller, method) => method,
  });
}

/** Serves the document at /api/openapi.json and the browsable Swagger UI at /api/docs. */
export function setupApiDocs(app: NestExpressApplication, config: AppConfig): void {
  SwaggerModule.setup(API_DOCS_PATH.slice(1), app, buildOpenApiDocument(app, config), {
    jsonDocumentUrl: OPENAPI_DOCUMENT_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: 'Tenant service API',
  });
}
