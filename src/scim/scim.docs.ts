/** The OpenAPI document of the SCIM 2.0 routes (bearer token): discovery, Users and Groups. */

import { applyDecorators, HttpStatus } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiNoContentResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { SCIM_BEARER_SCHEME } from '../common/openapi';
import { SCIM_CONTENT_TYPE, SCIM_ERROR_SCHEMA, SCIM_MESSAGES } from './scim-errors';
import { SEARCH_REQUEST_SCHEMA } from './scim-search';

const resource: SchemaObject = { type: 'object', additionalProperties: true };
/** SCIM's error body (RFC 7644 section 3.12), on every SCIM refusal. */
const SCIM_ERROR_RESPONSE_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['schemas', 'status', 'detail'],
  properties: {
    schemas: { type: 'array', items: { type: 'string', enum: [SCIM_ERROR_SCHEMA] } },
    status: { type: 'string', example: '404' },
    scimType: {
      type: 'string',
      enum: ['invalidFilter', 'uniqueness', 'mutability', 'invalidSyntax', 'invalidPath', 'noTarget', 'invalidValue'],
    },
    detail: { type: 'string' },
  },
};
const listSchema: SchemaObject = {
  type: 'object',
  required: ['schemas', 'totalResults', 'startIndex', 'itemsPerPage', 'Resources'],
  properties: {
    schemas: { type: 'array', items: { type: 'string' } },
    totalResults: { type: 'integer' },
    startIndex: { type: 'integer' },
    itemsPerPage: { type: 'integer' },
    Resources: { type: 'array', items: resource },
  },
};

const scimResponse = (status: number, description: string, schema: object = resource) =>
  ApiResponse({ status, description, content: { [SCIM_CONTENT_TYPE]: { schema } } });
const scimErrorResponse = (status: number, description: string) =>
  scimResponse(status, description, SCIM_ERROR_RESPONSE_SCHEMA);
/** The media types the SCIM parser reads (scim-body-parser). */
const scimConsumes = () => ApiConsumes(SCIM_CONTENT_TYPE, 'application/json');
const scimBody = (description: string) =>
  applyDecorators(scimConsumes(), ApiBody({ description, required: true, schema: resource }));

/** Every SCIM route: the bearer token, and its refusals. */
export const ApiScim = () =>
  applyDecorators(
    ApiTags('SCIM 2.0'),
    ApiBearerAuth(SCIM_BEARER_SCHEME),
    scimErrorResponse(HttpStatus.UNAUTHORIZED, `${SCIM_MESSAGES.unauthorized}: missing, unknown or revoked`),
    scimErrorResponse(HttpStatus.FORBIDDEN, 'The token’s organisation is suspended or deleted'),
    ApiResponse({
      status: HttpStatus.TOO_MANY_REQUESTS,
      description: 'Over SCIM_RATE_LIMIT requests per token per minute',
      headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
      content: { [SCIM_CONTENT_TYPE]: { schema: SCIM_ERROR_RESPONSE_SCHEMA } },
    }),
    scimErrorResponse(HttpStatus.INTERNAL_SERVER_ERROR, 'Unexpected failure'),
  );

const idParam = (what: string) => ApiParam({ name: 'id', description: `The ${what}’s SCIM id` });
/** RFC 7644 section 3.9, on every route that answers a User or Group. */
const projectionQueries = () =>
  applyDecorators(
    ApiQuery({
      name: 'attributes',
      required: false,
      type: String,
      description:
        'Comma-separated attribute names (`userName`, `name.givenName`, `emails.value`, with or without the schema URN, ' +
        'any case): only these are returned, with id and schemas',
    }),
    ApiQuery({
      name: 'excludedAttributes',
      required: false,
      type: String,
      description: 'Comma-separated attribute names left out (never id and schemas)',
    }),
  );
const searchRequest: SchemaObject = {
  type: 'object',
  properties: {
    schemas: { type: 'array', items: { type: 'string', enum: [SEARCH_REQUEST_SCHEMA] } },
    filter: { type: 'string' },
    attributes: { type: 'array', items: { type: 'string' } },
    excludedAttributes: { type: 'array', items: { type: 'string' } },
    startIndex: { type: 'integer', description: '1-based' },
    count: { type: 'integer', description: 'At most 100' },
  },
};
const search = (summary: string, filters: string) =>
  applyDecorators(
    ApiOperation({
      summary,
      description: `RFC 7644 section 3.4.3: the list's GET with its parameters in the body. filter: ${filters}`,
    }),
    scimConsumes(),
    ApiBody({ description: 'A SearchRequest', required: true, schema: searchRequest }),
    scimResponse(HttpStatus.OK, 'A ListResponse', listSchema),
    scimErrorResponse(HttpStatus.BAD_REQUEST, 'invalidFilter, invalidValue or invalidSyntax'),
  );
const USER_FILTERS =
  'userName eq (case-insensitive), externalId eq, emails.value eq, id eq, joined by and; anything else 400 invalidFilter.';
const GROUP_FILTERS = 'displayName eq, externalId eq, id eq.';

export const ApiScimServiceProviderConfig = () =>
  applyDecorators(
    ApiOperation({ summary: 'SCIM ServiceProviderConfig (RFC 7643 section 5): patch and filter supported' }),
    scimResponse(HttpStatus.OK, 'The configuration'),
  );
export const ApiScimResourceTypes = () =>
  applyDecorators(
    ApiOperation({ summary: 'SCIM ResourceTypes (RFC 7643 section 6): User and Group' }),
    scimResponse(HttpStatus.OK, 'A ListResponse', listSchema),
  );
export const ApiScimResourceType = () =>
  applyDecorators(
    ApiOperation({ summary: 'One SCIM ResourceType' }),
    ApiParam({ name: 'id', description: 'User or Group' }),
    scimResponse(HttpStatus.OK, 'The resource type'),
    scimErrorResponse(HttpStatus.NOT_FOUND, 'No such resource type'),
  );
export const ApiScimSchemas = () =>
  applyDecorators(
    ApiOperation({ summary: 'SCIM Schemas (RFC 7643 section 7)' }),
    scimResponse(HttpStatus.OK, 'A ListResponse', listSchema),
  );
export const ApiScimSchema = () =>
  applyDecorators(
    ApiOperation({ summary: 'One SCIM Schema, by its URN' }),
    ApiParam({ name: 'id', description: 'The schema’s URN' }),
    scimResponse(HttpStatus.OK, 'The schema'),
    scimErrorResponse(HttpStatus.NOT_FOUND, 'No such schema'),
  );

export const ApiScimSearchAll = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Search every resource type at once: not supported',
      description: 'Search Users and Groups one at a time, at /Users/.search and /Groups/.search.',
    }),
    scimConsumes(),
    ApiBody({ description: 'A SearchRequest (any body is refused alike)', required: false, schema: searchRequest }),
    scimErrorResponse(HttpStatus.NOT_IMPLEMENTED, SCIM_MESSAGES.rootSearch),
  );

export const ApiScimCreateUser = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Create a SCIM User: the person becomes a member of the organisation',
      description:
        'userName (an e-mail address), externalId, name, emails, active. The person is made in the identity store when the ' +
        'address has no account (cognito: AdminCreateUser without a message), adopted when it has one in no organisation. ' +
        'Event: member.joined with via "scim".',
    }),
    scimBody('A User resource (application/scim+json or application/json)'),
    projectionQueries(),
    ApiResponse({
      status: HttpStatus.CREATED,
      description: 'The User, with meta and a Location header',
      headers: { Location: { description: 'meta.location', schema: { type: 'string' } } },
      content: { [SCIM_CONTENT_TYPE]: { schema: resource } },
    }),
    scimErrorResponse(HttpStatus.BAD_REQUEST, 'invalidValue or invalidSyntax'),
    scimErrorResponse(
      HttpStatus.CONFLICT,
      'uniqueness: the userName is taken in the organisation, or the address belongs to another organisation’s member',
    ),
    scimErrorResponse(HttpStatus.PAYLOAD_TOO_LARGE, 'A body over 1 MB'),
  );
export const ApiScimListUsers = () =>
  applyDecorators(
    ApiOperation({
      summary: 'List SCIM Users',
      description: `filter: ${USER_FILTERS}`,
    }),
    projectionQueries(),
    ApiQuery({ name: 'filter', required: false, type: String }),
    ApiQuery({ name: 'startIndex', required: false, type: Number, description: '1-based' }),
    ApiQuery({ name: 'count', required: false, type: Number, description: 'At most 100' }),
    scimResponse(HttpStatus.OK, 'A ListResponse', listSchema),
    scimErrorResponse(HttpStatus.BAD_REQUEST, 'invalidFilter or invalidValue'),
  );
export const ApiScimSearchUsers = () => search('Search SCIM Users (POST)', USER_FILTERS);
export const ApiScimGetUser = () =>
  applyDecorators(
    ApiOperation({ summary: 'One SCIM User' }),
    idParam('User'),
    projectionQueries(),
    scimErrorResponse(HttpStatus.BAD_REQUEST, 'invalidValue: a bad attribute name'),
    scimResponse(HttpStatus.OK, 'The User'),
    scimErrorResponse(HttpStatus.NOT_FOUND, SCIM_MESSAGES.userNotFound),
  );
const userChange = (summary: string, body: string) =>
  applyDecorators(
    ApiOperation({
      summary,
      description:
        'active false detaches the person from the organisation at once (the resource stays); true brings them back with ' +
        'their role. A new userName or primary e-mail changes the stored address. The last owner is never detached (409 mutability). ' +
        'PATCH: removing active (or setting it to null) leaves it unassigned, not returned, and detaches the person as ' +
        'false does; removing userName, id, meta or groups (readOnly) is 400 mutability.',
    }),
    idParam('User'),
    projectionQueries(),
    scimBody(body),
    scimResponse(HttpStatus.OK, 'The User after the change'),
    scimErrorResponse(HttpStatus.BAD_REQUEST, 'invalidValue, invalidSyntax, invalidPath, noTarget or mutability'),
    scimErrorResponse(HttpStatus.NOT_FOUND, SCIM_MESSAGES.userNotFound),
    scimErrorResponse(HttpStatus.CONFLICT, 'uniqueness, or mutability (the last owner)'),
    scimErrorResponse(HttpStatus.PAYLOAD_TOO_LARGE, 'A body over 1 MB'),
  );
export const ApiScimReplaceUser = () => userChange('Replace a SCIM User (the whole resource)', 'A User resource');
export const ApiScimPatchUser = () =>
  userChange('Patch a SCIM User (PatchOp: add, replace, remove; with or without path)', 'A PatchOp message');
export const ApiScimDeleteUser = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a SCIM User: the person leaves the organisation (the account stays)',
      description: 'Event: member.removed with via "scim". The last owner is never removed (409 mutability).',
    }),
    idParam('User'),
    ApiNoContentResponse({ description: 'Removed' }),
    scimErrorResponse(HttpStatus.NOT_FOUND, SCIM_MESSAGES.userNotFound),
    scimErrorResponse(HttpStatus.CONFLICT, 'mutability: the last owner'),
  );

export const ApiScimCreateGroup = () =>
  applyDecorators(
    ApiOperation({ summary: 'Create a SCIM Group, with members', description: 'Event: scim.group_created.' }),
    scimBody('A Group resource'),
    projectionQueries(),
    ApiResponse({
      status: HttpStatus.CREATED,
      description: 'The Group, with a Location header',
      headers: { Location: { description: 'meta.location', schema: { type: 'string' } } },
      content: { [SCIM_CONTENT_TYPE]: { schema: resource } },
    }),
    scimErrorResponse(HttpStatus.BAD_REQUEST, 'invalidValue: no displayName, or a member that is not a User'),
    scimErrorResponse(HttpStatus.CONFLICT, 'uniqueness (displayName), or mutability (the last owner)'),
    scimErrorResponse(HttpStatus.PAYLOAD_TOO_LARGE, 'A body over 1 MB'),
  );
export const ApiScimListGroups = () =>
  applyDecorators(
    ApiOperation({ summary: 'List SCIM Groups', description: `filter: ${GROUP_FILTERS}` }),
    ApiQuery({ name: 'filter', required: false, type: String }),
    ApiQuery({ name: 'startIndex', required: false, type: Number }),
    ApiQuery({ name: 'count', required: false, type: Number }),
    projectionQueries(),
    scimResponse(HttpStatus.OK, 'A ListResponse', listSchema),
    scimErrorResponse(HttpStatus.BAD_REQUEST, 'invalidFilter or invalidValue'),
  );
export const ApiScimSearchGroups = () => search('Search SCIM Groups (POST)', GROUP_FILTERS);
export const ApiScimGetGroup = () =>
  applyDecorators(
    ApiOperation({ summary: 'One SCIM Group' }),
    idParam('Group'),
    projectionQueries(),
    scimErrorResponse(HttpStatus.BAD_REQUEST, 'invalidValue: a bad attribute name'),
    scimResponse(HttpStatus.OK, 'The Group'),
    scimErrorResponse(HttpStatus.NOT_FOUND, SCIM_MESSAGES.groupNotFound),
  );
const groupChange = (summary: string, body: string) =>
  applyDecorators(
    ApiOperation({
      summary,
      description: 'Members’ roles are recomputed from the role mapping. Event: scim.group_updated.',
    }),
    idParam('Group'),
    projectionQueries(),
    scimBody(body),
    scimResponse(HttpStatus.OK, 'The Group after the change'),
    ApiNoContentResponse({ description: 'PATCH: changed (no body asked for)' }),
    scimErrorResponse(HttpStatus.BAD_REQUEST, 'invalidValue, invalidSyntax, invalidPath or noTarget'),
    scimErrorResponse(HttpStatus.NOT_FOUND, SCIM_MESSAGES.groupNotFound),
    scimErrorResponse(HttpStatus.CONFLICT, 'uniqueness (displayName), or mutability (the last owner)'),
    scimErrorResponse(HttpStatus.PAYLOAD_TOO_LARGE, 'A body over 1 MB'),
  );
export const ApiScimReplaceGroup = () => groupChange('Replace a SCIM Group', 'A Group resource');
export const ApiScimPatchGroup = () =>
  groupChange('Patch a SCIM Group: members add and remove (Entra’s members[value eq "…"] too)', 'A PatchOp message');
export const ApiScimDeleteGroup = () =>
  applyDecorators(
    ApiOperation({ summary: 'Delete a SCIM Group', description: 'Event: scim.group_deleted.' }),
    idParam('Group'),
    ApiNoContentResponse({ description: 'Deleted' }),
    scimErrorResponse(HttpStatus.NOT_FOUND, SCIM_MESSAGES.groupNotFound),
    scimErrorResponse(HttpStatus.CONFLICT, 'mutability (the last owner)'),
  );
