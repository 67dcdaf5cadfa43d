/** The OpenAPI document of an organisation's SCIM settings (owners, by session): its tokens and the role mapping of its groups. */

import { applyDecorators, HttpStatus } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiErrorResponse, ApiSession, ErrorBody, FORBIDDEN_BODY, UNAUTHORIZED_BODY } from '../common/openapi';
import { RoleErrorBody, roleErrorBody, ROLE_ERRORS } from '../permissions/role-errors';
import { SCIM_ADMIN_ERRORS } from './scim-admin.service';
import { SCIM_MESSAGES } from './scim-errors';

class ScimTokenResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Shown once: only its hash is kept' }) secret: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}
export class CreatedScimTokenResponse {
  @ApiProperty({ enum: [true] }) success: true;
  @ApiProperty({ type: ScimTokenResponse }) token: ScimTokenResponse;
}
export class ListedScimToken {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null until used' })
  lastUsedAt: string | null;
}
export class ScimTokenListResponse {
  @ApiProperty({ type: [ListedScimToken] }) tokens: ListedScimToken[];
}
class ScimSuccessResponse {
  @ApiProperty({ enum: [true] }) success: true;
}
const baseRoleSchema: SchemaObject = { type: 'string', enum: ['owner', 'admin', 'member'] };
const mappingSchema: SchemaObject = {
  type: 'object',
  description: 'Group displayName to a base role, or to a base role (member when left out) and custom roles',
  additionalProperties: {
    oneOf: [
      baseRoleSchema,
      {
        type: 'object',
        required: ['roles'],
        additionalProperties: false,
        properties: {
          role: baseRoleSchema,
          roles: { type: 'array', maxItems: 10, uniqueItems: true, items: { type: 'string' } },
        },
      },
    ],
  },
  example: { Engineering: 'admin', 'IT Admins': 'owner', Recruiters: { role: 'member', roles: ['recruiter'] } },
};
class ScimLastOwnerBody extends ErrorBody {
  @ApiProperty({ enum: ['mutability'] }) scimType: string;
}

const notOrgUser = { error: SCIM_ADMIN_ERRORS.notOrgUser };
const notOwner = { error: SCIM_ADMIN_ERRORS.notOwner };

export const ApiScimAdmin = () =>
  applyDecorators(
    ApiTags('Organisation: SCIM'),
    ApiSession(),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
    ApiErrorResponse(HttpStatus.FORBIDDEN, 'Not an owner of an organisation', [notOrgUser, notOwner, FORBIDDEN_BODY]),
  );
export const ApiCreateScimToken = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Make a SCIM token (owners): the secret is shown once',
      description: 'Event: scim.token_created.',
    }),
    ApiCreatedResponse({ type: CreatedScimTokenResponse }),
  );
export const ApiListScimTokens = () =>
  applyDecorators(
    ApiOperation({ summary: 'The organisation’s SCIM tokens (owners), without their secrets' }),
    ApiOkResponse({ type: ScimTokenListResponse }),
  );
export const ApiRevokeScimToken = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Revoke a SCIM token (owners): refused at once on every instance',
      description: 'Event: scim.token_revoked.',
    }),
    ApiParam({ name: 'id', description: 'The token id' }),
    ApiOkResponse({ type: ScimSuccessResponse }),
    ApiErrorResponse(HttpStatus.NOT_FOUND, 'No such token in the organisation', [
      { error: SCIM_ADMIN_ERRORS.tokenNotFound },
    ]),
  );
export const ApiGetScimRoleMapping = () =>
  applyDecorators(
    ApiOperation({ summary: 'The role mapping of SCIM groups (owners)' }),
    ApiOkResponse({
      schema: { type: 'object', required: ['mapping'], properties: { mapping: mappingSchema } },
    }),
  );
export const ApiPutScimRoleMapping = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Replace the role mapping of SCIM groups (owners)',
      description:
        'A SCIM member’s role is the highest that their groups map to, else member; a custom role that some group maps ' +
        'to is held exactly when one of their groups maps to it (others stay as given); every active SCIM member is ' +
        'recomputed. Events: scim.role_mapping_updated, member.updated per changed role, member.roles_changed per ' +
        'changed set of custom roles; a refused change: scim.change_refused.',
    }),
    ApiBody({ schema: mappingSchema }),
    ApiOkResponse({
      schema: {
        type: 'object',
        required: ['success', 'mapping'],
        properties: { success: { type: 'boolean', enum: [true] }, mapping: mappingSchema },
      },
    }),
    ApiErrorResponse(HttpStatus.BAD_REQUEST, 'Not a mapping of group names to roles', [
      { error: SCIM_ADMIN_ERRORS.invalidMapping },
    ]),
    ApiErrorResponse(
      HttpStatus.UNPROCESSABLE_ENTITY,
      'A custom role that the organisation does not define',
      [roleErrorBody(ROLE_ERRORS.unknownRole, { role: 'recruiter' })],
      RoleErrorBody,
    ),
    ApiErrorResponse(
      HttpStatus.CONFLICT,
      'The change would leave the organisation without an owner',
      [{ error: SCIM_MESSAGES.lastOwner, scimType: 'mutability' }],
      ScimLastOwnerBody,
    ),
  );
