import Ajv from 'ajv';
import type { Middleware } from 'openapi-fetch';

interface DocumentedResponse {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, { schema: unknown }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>;
}

/** A JSON pointer segment, URI-encoded for a $ref (paths hold `/` and `{}`). */
const segment = (key: string) => encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'));

/**
 * An openapi-fetch middleware that checks every answer against the document: its status is
 * documented (or falls to `default`), the headers it declares are sent (unless `required: false`), and a JSON body is valid
 * against that response's schema. Mismatches are collected for the test to assert on.
 */
export function conformanceCheck(document: OpenApiDocument): { middleware: Middleware; mismatches: string[] } {
  // OpenAPI 3.0 schemas: unknown keywords (example) are ignored, formats are not checked.
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(document, 'openapi');
  const mismatches: string[] = [];
  const middleware: Middleware = {
    async onResponse({ request, response, schemaPath }) {
      const method = request.method.toLowerCase();
      const where = `${request.method} ${schemaPath} ${response.status}`;
      const responses = document.paths[schemaPath]?.[method]?.responses;
      const status = responses && (String(response.status) in responses ? String(response.status) : 'default');
      const documented = status && responses[status];
      if (!documented) return void mismatches.push(`${where}: status not documented`);
      for (const [header, declared] of Object.entries(documented.headers ?? {})) {
        if (declared.required !== false && !response.headers.has(header))
          mismatches.push(`${where}: header ${header} not sent`);
      }
      if (!response.headers.get('content-type')?.startsWith('application/json')) return;
      if (!documented.content?.['application/json']) return void mismatches.push(`${where}: JSON body not documented`);
      const pointer = ['paths', schemaPath, method, 'responses', status, 'content', 'application/json', 'schema']
        .map(segment)
        .join('/');
      const validate = ajv.compile({ $ref: `openapi#/${pointer}` });
      const body: unknown = await response.clone().json();
      if (!validate(body)) mismatches.push(`${where}: ${JSON.stringify(body)} ${ajv.errorsText(validate.errors)}`);
    },
  };
  return { middleware, mismatches };
}
