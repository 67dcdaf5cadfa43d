/**
 * Passes over the generated OpenAPI document for what the routes' decorators cannot say: the body
 * parsers' and request filters' refusals, which any route may answer (app.setup mounts them before
 * routing), and nullable references in the form OpenAPI 3.0 validators read as admitting null.
 */
import type {
  OpenAPIObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { HOST_NOT_ALLOWED, ORIGIN_NOT_ALLOWED } from '../common/request-filters';
import { isPublicInvitationPath } from '../common/route-pattern';
import { JSON_BODY_ERRORS, JSON_BODY_LIMIT_BYTES } from '../common/json-body-parser';

type Operation = { responses?: Record<string, ResponseObject>; requestBody?: unknown };
type Examples = Record<string, { summary: string; value: object }>;

const ERROR_BODY: ReferenceObject = { $ref: '#/components/schemas/ErrorBody' };
const WITH_BODIES = ['post', 'put', 'patch', 'delete'];

/**
 * The media type and schema of the operation's refusals when they are not the API's `{error}` but
 * SCIM's (RFC 7644 section 3.12: its 401, as every SCIM route's, is `application/scim+json`): the SCIM
 * routes' own body parser answers in that form.
 */
function ownErrorForm(operation: Operation): [string, SchemaObject | ReferenceObject] | undefined {
  const content = operation.responses?.['401']?.content ?? {};
  const found = Object.entries(content).find(([mediaType]) => mediaType.endsWith('+json'));
  return found?.[1].schema ? [found[0], found[1].schema] : undefined;
}

const examplesOf = (bodies: object[]): Examples =>
  Object.fromEntries(
    bodies.map((body) => {
      const summary = String(
        (body as { error?: unknown; detail?: unknown }).error ?? (body as { detail?: unknown }).detail,
      );
      return [summary, { summary, value: body }];
    }),
  );

const sameSchema = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Declares `bodies` (of `schema`, as `mediaType`) for `status` of the operation: added beside what it
 * declares already, the schema then being either one (anyOf) unless it admits them already.
 */
function declare(
  operation: Operation,
  status: string,
  description: string,
  mediaType: string,
  schema: SchemaObject | ReferenceObject,
  bodies: object[],
): void {
  operation.responses ??= {};
  const response = (operation.responses[status] ??= { description });
  if (response.description !== description && !response.description.includes(description))
    response.description = `${response.description}; or ${description[0].toLowerCase()}${description.slice(1)}`;
  response.content ??= {};
  const media = (response.content[mediaType] ??= { schema });
  const current = media.schema;
  const admits =
    sameSchema(current, schema) || ((current as SchemaObject)?.anyOf ?? []).some((one) => sameSchema(one, schema));
  if (!admits) media.schema = current ? { anyOf: [current, schema] } : schema;
  media.examples = { ...media.examples, ...examplesOf(bodies) };
}

const scimError = (status: number, detail: string) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
  status: String(status),
  detail,
});

/**
 * The JSON parser's 400 (malformed, too deep), 413 and 415 on every route that may be sent a body, in
 * its `{error}` form; on the SCIM routes that take a body, the SCIM parser's, in SCIM's error form.
 */
export function withBodyParserRefusals(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(operations) as [string, Operation][]) {
      if (!WITH_BODIES.includes(method)) continue;
      const scim = ownErrorForm(operation);
      if (scim) {
        if (!operation.requestBody) continue;
        const [mediaType, schema] = scim;
        declare(operation, '400', 'The body is not JSON', mediaType, schema, [
          scimError(400, JSON_BODY_ERRORS.malformed),
        ]);
        declare(operation, '413', 'A body over the SCIM routes’ limit', mediaType, schema, [
          scimError(413, JSON_BODY_ERRORS.tooLarge),
        ]);
        declare(operation, '415', 'A body in a charset other than UTF-8', mediaType, schema, [
          scimError(415, JSON_BODY_ERRORS.notUtf8),
        ]);
        continue;
      }
      declare(operation, '400', 'The body is not JSON, or nests too deeply', 'application/json', ERROR_BODY, [
        { error: JSON_BODY_ERRORS.malformed },
        { error: JSON_BODY_ERRORS.tooDeep },
      ]);
      declare(operation, '413', `The body is over ${JSON_BODY_LIMIT_BYTES / 1024} KB`, 'application/json', ERROR_BODY, [
        { error: JSON_BODY_ERRORS.tooLarge },
      ]);
      declare(
        operation,
        '415',
        'A JSON body in a charset other than UTF-8, or in an unknown Content-Encoding',
        'application/json',
        ERROR_BODY,
        [{ error: JSON_BODY_ERRORS.notUtf8 }, { error: JSON_BODY_ERRORS.unsupportedEncoding }],
      );
    }
  }
  return document;
}

/**
 * The refusals before routing (ALLOWED_HOSTS: 400, ALLOWED_ORIGINS: 403 to a cookie-carrying unsafe
 * method) are every operation's `default`; where an operation declares 400 or 403 itself, that status
 * admits them too, since a status's own response hides `default`.
 */
/** The paths the Origin check leaves alone (app.setup): the public invitation routes, and SAML's (/sso/saml). */
const ORIGIN_EXEMPT = (path: string) => isPublicInvitationPath(path) || path.startsWith('/sso/saml/');

export function withRequestFilterRefusals(document: OpenAPIObject): OpenAPIObject {
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations) as [string, Operation][]) {
      const { responses = {} } = operation;
      const originChecked = WITH_BODIES.includes(method) && !ORIGIN_EXEMPT(path);
      if (responses['400'])
        declare(operation, '400', 'Host not in ALLOWED_HOSTS', 'application/json', ERROR_BODY, [
          { error: HOST_NOT_ALLOWED },
        ]);
      if (responses['403'] && originChecked)
        declare(
          operation,
          '403',
          'A cookie-carrying request from an Origin not in ALLOWED_ORIGINS',
          'application/json',
          ERROR_BODY,
          [{ error: ORIGIN_NOT_ALLOWED }],
        );
    }
  }
  return document;
}

/**
 * @nestjs/swagger writes a nullable property of a class type as `nullable: true` beside
 * `allOf: [$ref]`, which OpenAPI 3.0 reads as admitting no null (nullable adds null to the schema's
 * own `type` only, and the referenced schema refuses it). Rewritten as one of the referenced schema
 * or null (the null-only schema of OpenAPI 3.0: nullable, with null its one value). A nullable enum
 * lists null among its values.
 */
export function withNullableReferences(document: OpenAPIObject): OpenAPIObject {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const schema = node as SchemaObject & Record<string, unknown>;
    if (schema.nullable === true && schema.allOf?.length === 1 && '$ref' in schema.allOf[0]) {
      const [reference] = schema.allOf;
      delete schema.nullable;
      delete schema.type;
      delete schema.allOf;
      schema.oneOf = [reference, { type: 'object', nullable: true, enum: [null] }];
    }
    // OpenAPI 3.0.3: an enum lists every value the schema admits, null too when it is nullable.
    if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
    Object.values(schema).forEach(visit);
  };
  visit(document.components?.schemas);
  visit(document.paths);
  return document;
}

/**
 * Node's HTTP server answers 431 to request headers over its 16 KB before the service sees the request
 * (app.setup), with neither body nor X-Request-Id: declared on the operations that the service itself
 * answers no 4XX on (the probes, the metrics, the documents), so that each has one. Not on the others:
 * a bodiless error answer would make every typed client's `error` possibly undefined, and with it `data`
 * after `if (error) throw`. After withRequestIdHeader.
 */
export function withHeaderLimit(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as Operation[]) {
      if (Object.keys(operation.responses ?? {}).some((status) => status.startsWith('4'))) continue;
      operation.responses = {
        ...operation.responses,
        431: {
          description:
            'Request headers over 16 KB: answered by Node’s HTTP server before the service, with neither body nor X-Request-Id',
        },
      };
    }
  }
  return document;
}
