import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { HeaderObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { license, version } from '../../package.json';
import { withServedDocuments } from './served-documents';
import {
  withBodyParserRefusals,
  withHeaderLimit,
  withNullableReferences,
  withRequestFilterRefusals,
} from './document-passes';
import {
  errorResponse,
  SCIM_BEARER_SCHEME,
  SESSION_SCHEME,
  SETUP_SESSION_COOKIE,
  SETUP_SESSION_SCHEME,
} from '../common/openapi';
import { ORGANISATION_SUSPENDED, SSO_REQUIRED } from '../auth/org-admin.policy';
import { HOST_NOT_ALLOWED, ORIGIN_NOT_ALLOWED } from '../common/request-filters';
import { REQUEST_TIMED_OUT } from '../common/request-timeout';
import { AppConfig } from '../config/app-config';
import { REQUEST_ID_HEADER } from '../logging/log-redaction';
import {
  baseRoleHolds,
  isServicePermission,
  REQUIRED_PERMISSION_EXTENSION,
  SERVICE_PERMISSIONS,
  SYSTEM_ROLES,
} from '../permissions/permission-catalogue';

export const API_DOCS_PATH = '/api/docs';
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';

/** UNLICENSED, package.json's licence: npm's definition (no rights granted to use a private package). */
const LICENSE_TERMS = 'https://docs.npmjs.com/cli/v10/configuring-npm/package-json#license';

/** The answers that any route may give, whatever its controller: app-wide filters and the request timeout. */
const EVERY_ROUTE_RESPONSES = [
  errorResponse(503, 'The request took longer than REQUEST_TIMEOUT_MS', [{ error: REQUEST_TIMED_OUT }]),
  errorResponse(
    'default',
    'Refused before routing: Host not in ALLOWED_HOSTS (400), or a cookie-carrying POST or ' +
      'DELETE from an Origin not in ALLOWED_ORIGINS (403)',
    [{ error: HOST_NOT_ALLOWED }, { error: ORIGIN_NOT_ALLOWED }],
  ),
];

/** The request id that every response carries (HttpLogger). */
const REQUEST_ID: HeaderObject = {
  description: `The id of this request in the service's logs: the request's own ${REQUEST_ID_HEADER} when sane, else a new UUID`,
  schema: { type: 'string', minLength: 1, maxLength: 128 },
};

/** Declares X-Request-Id, once, in components, and on every response of every operation. */
function withRequestIdHeader(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    headers: { ...document.components?.headers, [REQUEST_ID_HEADER]: REQUEST_ID },
  };
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as { responses?: Record<string, ResponseObject> }[]) {
      for (const response of Object.values(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          [REQUEST_ID_HEADER]: { $ref: `#/components/headers/${REQUEST_ID_HEADER}` },
        };
      }
    }
  }
  return document;
}

/** The body of OrgAdminGuard's SSO_REQUIRED (docs/sso.md, "Enforcement"). */
const SSO_REQUIRED_BODY = 'SsoRequiredBody';
const SSO_REQUIRED_SCHEMA = {
  type: 'object' as const,
  required: ['success', 'error', 'startUrl'],
  properties: {
    success: { type: 'boolean' as const, enum: [false] },
    error: { type: 'string' as const, enum: [SSO_REQUIRED] },
    startUrl: { type: 'string' as const, description: 'Where the member signs in by single sign-on' },
  },
};

/**
 * OrgAdminGuard answers every member of a suspended tenant 403 "Organisation is suspended", and a
 * member of an organisation that requires single sign-on whose session it did not make 403
 * SSO_REQUIRED (docs/sso.md), on every org route: two more examples beside each /api/org route's
 * own 403 bodies, whose schema admits the second's body too.
 */
function withSuspendedOrganisation(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, [SSO_REQUIRED_BODY]: SSO_REQUIRED_SCHEMA },
  };
  const ssoRequired = { $ref: `#/components/schemas/${SSO_REQUIRED_BODY}` };
  const examples = {
    [ORGANISATION_SUSPENDED]: { summary: ORGANISATION_SUSPENDED, value: { error: ORGANISATION_SUSPENDED } },
    [SSO_REQUIRED]: {
      summary: `${SSO_REQUIRED}: the organisation requires single sign-on of its members (owners keep access)`,
      value: {
        success: false,
        error: SSO_REQUIRED,
        startUrl: 'https://tenants.example.com/sso/start?email=rita%40acme.example',
      },
    },
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/org/')) continue;
    for (const operation of Object.values(operations) as { responses?: Record<string, ResponseObject> }[]) {
      const json = operation.responses?.['403']?.content?.['application/json'];
      if (!json) continue;
      json.examples = { ...json.examples, ...examples };
      json.schema = json.schema ? { anyOf: [json.schema, ssoRequired] } : ssoRequired;
    }
  }
  return document;
}

/**
 * Each org route says in its description which permission it needs (RequirePermission put it in
 * `x-required-permission`), who holds it, and whether a custom role may carry it (docs/roles.md).
 */
function withRequiredPermissions(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as Record<string, unknown>[]) {
      const permission = operation[REQUIRED_PERMISSION_EXTENSION];
      if (typeof permission !== 'string' || !isServicePermission(permission)) continue;
      const holders = SYSTEM_ROLES.filter((role) => baseRoleHolds(role, permission)).join(', ');
      const grantable = SERVICE_PERMISSIONS[permission].grantable ? ', and custom roles that carry it' : ' only';
      const line = `Permission: \`${permission}\` (held by ${holders}${grantable}; docs/roles.md).`;
      operation.description = operation.description ? `${String(operation.description)}\n\n${line}` : line;
    }
  }
  return document;
}

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
    .addCookieAuth(
      SETUP_SESSION_COOKIE,
      {
        type: 'apiKey',
        in: 'cookie',
        description: 'A setup session, set by opening a setup link (GET /setup/{token})',
      },
      SETUP_SESSION_SCHEME,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'A SCIM token (POST /api/org/scim/tokens): the /scim/v2 routes' },
      SCIM_BEARER_SCHEME,
    )
    .addServer(
      config.publicBaseUrl ?? '/',
      config.publicBaseUrl ? 'PUBLIC_BASE_URL' : 'This server (PUBLIC_BASE_URL is not set)',
    )
    // package.json's licence, and where npm says what that name means.
    .setLicense(license, LICENSE_TERMS)
    .addGlobalResponse(...EVERY_ROUTE_RESPONSES)
    .build();
  // A copy that shares no object: the decorators' metadata objects are shared between operations, and
  // the passes change them one operation at a time.
  const generated = JSON.parse(
    JSON.stringify(
      SwaggerModule.createDocument(app, options, {
        // Handler names are unique across the API: they make readable operation ids.
        operationIdFactory: (_controller, method) => method,
      }),
    ),
  ) as OpenAPIObject;
  // The answers that every route may give, as @nestjs/swagger wrote them on its operations (a probe's).
  const { 503: timedOut, default: refusedBeforeRouting } = generated.paths['/health/live'].get!.responses;
  const withDocuments = withServedDocuments(withBodyParserRefusals(generated), API_DOCS_PATH, OPENAPI_DOCUMENT_PATH, {
    503: timedOut,
    default: refusedBeforeRouting,
  });
  return withRequiredPermissions(
    withSuspendedOrganisation(
      withHeaderLimit(withRequestIdHeader(withNullableReferences(withRequestFilterRefusals(withDocuments)))),
    ),
  );
}

/** Serves the document at /api/openapi.json and the browsable Swagger UI at /api/docs. */
export function setupApiDocs(app: NestExpressApplication, config: AppConfig): void {
  // A factory: the document is built when it is first asked for, not at every start.
  SwaggerModule.setup(API_DOCS_PATH.slice(1), app, () => buildOpenApiDocument(app, config), {
    jsonDocumentUrl: OPENAPI_DOCUMENT_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: 'Tenant service API',
  });
}
