import { HttpStatus } from '@nestjs/common';
import { ScimError } from './scim-errors';
import { Projection, readProjection } from './scim-projection';

export const SEARCH_REQUEST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The member of a body named `name`, in any case. */
const member = (body: Record<string, unknown>, name: string): unknown =>
  body[Object.keys(body).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name];

/** A number as a query gives it, so that a search is paged as a GET is (listWindow). */
const asQueryValue = (value: unknown) => (typeof value === 'number' ? String(value) : (value ?? undefined));

export interface SearchRequest {
  /** The request as a GET's query: filter, startIndex, count, excludedAttributes (comma-separated). */
  query: Record<string, unknown>;
  projection: Projection;
}

/**
 * A `SearchRequest` (RFC 7644 section 3.4.3), read as the list's GET reads its query: the same
 * filter, paging and projection. `schemas`, when given, must name SearchRequest (400
 * invalidSyntax); sortBy and sortOrder are ignored, as sorting is not supported.
 */
export function readSearchRequest(body: unknown): SearchRequest {
  if (!isObject(body)) throw new ScimError(HttpStatus.BAD_REQUEST, 'The body is a SearchRequest', 'invalidSyntax');
  const schemas = member(body, 'schemas');
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(SEARCH_REQUEST_SCHEMA)))
    throw new ScimError(HttpStatus.BAD_REQUEST, `"schemas" lists ${SEARCH_REQUEST_SCHEMA}`, 'invalidSyntax');
  const filter = member(body, 'filter');
  if (filter !== undefined && filter !== null && typeof filter !== 'string')
    throw new ScimError(HttpStatus.BAD_REQUEST, '"filter" is a string', 'invalidFilter');
  const attributes = member(body, 'attributes');
  const excludedAttributes = member(body, 'excludedAttributes');
  const projection = readProjection({ attributes, excludedAttributes });
  return {
    query: {
      ...(typeof filter === 'string' && { filter }),
      startIndex: asQueryValue(member(body, 'startIndex')),
      count: asQueryValue(member(body, 'count')),
      ...(projection.excludedAttributes.length && { excludedAttributes: projection.excludedAttributes.join(',') }),
    },
    projection,
  };
}
