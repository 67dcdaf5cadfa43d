/**
 * The routes that serve the API document itself (SwaggerModule.setup registers them, outside any
 * controller): GET /api/openapi.json, and Swagger UI's page at /api/docs with the files it loads.
 */
import type { OpenAPIObject, OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { BROWSER_ROUTE_EXTENSION } from '../common/openapi';

/** getApiDocs, getApiDocsIndexHtml, …: readable operation ids from the path. */
const operationIdOf = (path: string) =>
  `get${path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('')}`;

/**
 * Adds those routes to `document`, at `docsPath` and `documentPath`, each with the answers every route
 * may give (`shared`: the document's 503 and default).
 */
export function withServedDocuments(
  document: OpenAPIObject,
  docsPath: string,
  documentPath: string,
  shared: OperationObject['responses'],
): OpenAPIObject {
  const get = (path: string, summary: string, mediaType: string, schema: object, browser = true) => ({
    [path]: {
      get: {
        operationId: operationIdOf(path),
        summary,
        tags: ['API document'],
        security: [],
        ...(browser && { [BROWSER_ROUTE_EXTENSION]: true }),
        responses: { 200: { description: summary, content: { [mediaType]: { schema } } }, ...shared },
      },
    },
  });
  const text = { type: 'string' };
  document.paths = {
    ...document.paths,
    ...get(documentPath, 'This document (OpenAPI 3)', 'application/json', { type: 'object' }, false),
    ...get(docsPath, 'Swagger UI: this document, browsable', 'text/html', text),
    ...get(`${docsPath}/index.html`, 'Swagger UI’s page, by its file name', 'text/html', text),
    ...get(
      `${docsPath}/swagger-ui-init.js`,
      'The script that starts Swagger UI on this document',
      'application/javascript',
      text,
    ),
    ...get(
      `${docsPath}/docs/swagger-ui-init.js`,
      'The same script, where a page at /api/docs/ asks for it',
      'application/javascript',
      text,
    ),
    ...get(`${docsPath}/LICENSE`, 'Swagger UI’s licence', 'text/plain', text),
  };
  return document;
}
