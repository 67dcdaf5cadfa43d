import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, FORBIDDEN_BODY, UNAUTHORIZED_BODY } from '../common/openapi';
import { JSON_BODY_ERRORS, JSON_BODY_LIMIT_BYTES } from '../common/json-body-parser';
import { MEMBER_ERRORS } from '../org-members/org-members.messages';
import { RoleErrorBody, roleErrorBody, RoleErrorCode, ROLE_ERRORS, RoleErrorDetails } from '../permissions/role-errors';
import {
  ChangedRoleResponse,
  CatalogueResponse,
  DeletedRoleResponse,
  ListRolesResponse,
  MemberRolesResponse,
  MyPermissionsResponse,
  OneRoleResponse,
  PermissionCheckResponse,
  ProductCatalogueResponse,
} from './dto/role.response';
import { ROLES_MANAGE_MESSAGES, ROLES_READ_MESSAGES } from './roles.messages';

/*
 * The API document's part for the role routes (docs/roles.md). The permission that each org route
 * needs is named by RequirePermission (x-required-permission, and a line of its description).
 */

const refusals = (status: HttpStatus, description: string, bodies: [RoleErrorCode, RoleErrorDetails?][]) =>
  ApiErrorResponse(
    status,
    description,
    bodies.map(([code, details]) => roleErrorBody(code, details)),
    RoleErrorBody,
  );

/** A JSON body's refusals by the parser, beside the route's own 400s. */
const jsonBody = (codes: RoleErrorCode[]) =>
  applyDecorators(
    refusals(
      HttpStatus.BAD_REQUEST,
      'The body breaks a rule',
      [...codes, ROLE_ERRORS.invalidBody].map((code) => [code]),
    ),
    ApiErrorResponse(HttpStatus.BAD_REQUEST, 'The body is not a JSON object', [
      { error: JSON_BODY_ERRORS.malformed },
      { error: JSON_BODY_ERRORS.tooDeep },
    ]),
    ApiErrorResponse(HttpStatus.PAYLOAD_TOO_LARGE, `The body is over ${JSON_BODY_LIMIT_BYTES / 1024} KB`, [
      { error: JSON_BODY_ERRORS.tooLarge },
    ]),
  );

const keyParam = () => ApiParam({ name: 'key', description: 'The role’s key: a custom role, or owner, admin, member' });

/**
 * The org guard's answers on the role routes, and the route's own 403s: one response, whose schema
 * is either the guard's `{error}` or the route's `{success:false, error}`.
 */
const orgRoute = (notPermitted?: string, forbidden: [RoleErrorCode, RoleErrorDetails?][] = []) =>
  applyDecorators(
    ApiSession(),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
    ApiErrorResponse(
      HttpStatus.FORBIDDEN,
      notPermitted ? 'Not a user of an organisation, or without the permission' : 'Not a user of an organisation',
      [{ error: ROLES_READ_MESSAGES.notOrgUser }, ...(notPermitted ? [{ error: notPermitted }] : [])],
    ),
    ...(forbidden.length
      ? [
          ApiErrorResponse(
            HttpStatus.FORBIDDEN,
            'The change is not the caller’s to make',
            forbidden.map(([code, details]) => roleErrorBody(code, details)),
            RoleErrorBody,
          ),
        ]
      : []),
  );

const ESCALATION: [RoleErrorCode, RoleErrorDetails] = [ROLE_ERRORS.escalation, { permission: 'members:remove' }];

export const ApiOrgRoles = () => ApiTags('Organisation: roles and permissions');

export const ApiListRoles = () =>
  applyDecorators(
    ApiOperation({ summary: 'The organisation’s roles: the three system roles, then its own by key' }),
    ApiOkResponse({ type: ListRolesResponse }),
    orgRoute(),
  );

export const ApiGetRole = () =>
  applyDecorators(
    ApiOperation({ summary: 'One role of the organisation, a system role or its own' }),
    keyParam(),
    ApiOkResponse({ type: OneRoleResponse }),
    orgRoute(),
    refusals(HttpStatus.NOT_FOUND, 'No such role', [[ROLE_ERRORS.notFound]]),
  );

export const ApiCreateRole = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Define a custom role: a key, a name and permissions of the catalogue',
      description:
        'Rules in order: the body (400), ROLE_RESERVED (409: owner, admin, member), UNKNOWN_PERMISSION and ' +
        'PERMISSION_NOT_GRANTABLE (422, naming it), ROLE_ESCALATION (403: a permission the caller lacks), ROLE_LIMIT ' +
        '(422, ROLES_PER_ORG), ROLE_EXISTS (409). Event role.created.',
    }),
    ApiResponse({ status: HttpStatus.CREATED, type: ChangedRoleResponse, description: 'The role' }),
    orgRoute(ROLES_MANAGE_MESSAGES.notOwnerOrAdmin, [ESCALATION]),
    jsonBody([
      ROLE_ERRORS.invalidKey,
      ROLE_ERRORS.invalidName,
      ROLE_ERRORS.invalidDescription,
      ROLE_ERRORS.invalidPermissions,
    ]),
    refusals(HttpStatus.CONFLICT, 'A reserved or taken key', [[ROLE_ERRORS.reserved], [ROLE_ERRORS.exists]]),
    refusals(HttpStatus.UNPROCESSABLE_ENTITY, 'A permission a role may not carry, or too many roles', [
      [ROLE_ERRORS.unknownPermission, { permission: 'reports:exprot' }],
      [ROLE_ERRORS.notGrantable, { permission: 'scim:manage' }],
      [ROLE_ERRORS.limit, { limit: 25 }],
    ]),
  );

export const ApiUpdateRole = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Change a custom role’s name, description or permissions (replaced whole)',
      description:
        'Rules in order: the body (400; at least one field), ROLE_SYSTEM (409), UNKNOWN_PERMISSION and ' +
        'PERMISSION_NOT_GRANTABLE (422), ROLE_NOT_FOUND (404), ROLE_ESCALATION (403: of the role before and after). ' +
        'Event role.updated; the change holds from the next request on every instance.',
    }),
    keyParam(),
    ApiOkResponse({ type: ChangedRoleResponse }),
    orgRoute(ROLES_MANAGE_MESSAGES.notOwnerOrAdmin, [ESCALATION]),
    jsonBody([ROLE_ERRORS.invalidName, ROLE_ERRORS.invalidDescription, ROLE_ERRORS.invalidPermissions]),
    refusals(HttpStatus.NOT_FOUND, 'No such role', [[ROLE_ERRORS.notFound]]),
    refusals(HttpStatus.CONFLICT, 'A system role', [[ROLE_ERRORS.system]]),
    refusals(HttpStatus.UNPROCESSABLE_ENTITY, 'A permission a role may not carry', [
      [ROLE_ERRORS.unknownPermission, { permission: 'reports:exprot' }],
      [ROLE_ERRORS.notGrantable, { permission: 'scim:manage' }],
    ]),
  );

export const ApiDeleteRole = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete a custom role; with reassignTo, its holders hold that role instead',
      description:
        'Rules in order: ROLE_SYSTEM (409), ROLE_NOT_FOUND (404), UNKNOWN_ROLE (422: reassignTo is not another ' +
        'custom role), ROLE_ESCALATION (403), ROLE_IN_USE (409 with `members`, without reassignTo). One transaction: ' +
        'role.deleted, and member.roles_changed for each holder. Invitations that carry the role lose it (or carry ' +
        'reassignTo instead).',
    }),
    keyParam(),
    ApiQuery({ name: 'reassignTo', required: false, description: 'A custom role that the holders get instead' }),
    ApiOkResponse({ type: DeletedRoleResponse }),
    orgRoute(ROLES_MANAGE_MESSAGES.notOwnerOrAdmin, [ESCALATION]),
    refusals(HttpStatus.NOT_FOUND, 'No such role', [[ROLE_ERRORS.notFound]]),
    refusals(HttpStatus.CONFLICT, 'A system role, or a role members hold', [
      [ROLE_ERRORS.system],
      [ROLE_ERRORS.inUse, { members: 3 }],
    ]),
    refusals(HttpStatus.UNPROCESSABLE_ENTITY, 'reassignTo is not another custom role', [
      [ROLE_ERRORS.unknownRole, { role: 'recruter' }],
    ]),
  );

export const ApiSetMemberRoles = () =>
  applyDecorators(
    ApiTags('Organisation: roles and permissions'),
    ApiOperation({
      summary: 'Replace the custom roles a member holds beside their base role',
      description:
        'Rules in order: the body (400), CANNOT_CHANGE_OWN_ROLES (400), USER_NOT_FOUND (404), ' +
        'ONLY_OWNERS_CHANGE_OWNERS (403), MEMBER_ROLE_LIMIT and UNKNOWN_ROLE (422), ROLE_ESCALATION (403: a ' +
        'permission of a role given or taken away that the caller lacks). Event member.roles_changed; the change ' +
        'holds from the next request on every instance.',
    }),
    ApiParam({ name: 'id', description: 'User id of the member' }),
    ApiOkResponse({ type: MemberRolesResponse }),
    orgRoute(MEMBER_ERRORS.notOwnerOrAdmin, [[ROLE_ERRORS.ownerProtected], ESCALATION]),
    jsonBody([ROLE_ERRORS.invalidRoles, ROLE_ERRORS.ownRoles]),
    refusals(HttpStatus.NOT_FOUND, 'No such user in the organisation', [[ROLE_ERRORS.userNotFound]]),
    refusals(HttpStatus.UNPROCESSABLE_ENTITY, 'Too many roles, or one the organisation does not have', [
      [ROLE_ERRORS.memberLimit, { limit: 10 }],
      [ROLE_ERRORS.unknownRole, { role: 'recruter' }],
    ]),
  );

export const ApiCheckPermissions = () =>
  applyDecorators(
    ApiTags('Organisation: roles and permissions'),
    ApiOperation({
      summary: 'Whether the caller, or another member, holds each permission now',
      description:
        'For the portal: up to 100 permissions, of the catalogue or not (a string that names no permission is ' +
        'false). Another member (`userId`) needs members:read, which every member holds. One indexed read of the ' +
        'member’s roles, whatever the organisation’s size; a change of roles holds from the next request.',
    }),
    ApiOkResponse({ type: PermissionCheckResponse }),
    orgRoute(),
    jsonBody([ROLE_ERRORS.invalidPermissions]),
    refusals(HttpStatus.NOT_FOUND, 'userId is not a user of the organisation', [[ROLE_ERRORS.userNotFound]]),
  );

export const ApiMyPermissions = () =>
  applyDecorators(
    ApiTags('Organisation: roles and permissions'),
    ApiSession(),
    ApiOperation({
      summary: 'The signed-in person’s organisation, base role, custom roles and permissions now',
      description: 'From the stored record, never the token. No permissions while the organisation is suspended.',
    }),
    ApiOkResponse({ type: MyPermissionsResponse }),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
  );

export const ApiListPermissions = () =>
  applyDecorators(
    ApiTags('Organisation: roles and permissions'),
    ApiSession(),
    ApiOperation({
      summary: 'The permission catalogue: the service’s own, then the product’s',
      description: 'Each with the system roles that hold it and whether a custom role may carry it.',
    }),
    ApiOkResponse({ type: CatalogueResponse }),
    ApiErrorResponse(HttpStatus.UNAUTHORIZED, 'No session', [UNAUTHORIZED_BODY]),
  );

export const ApiSetProductPermissions = () =>
  applyDecorators(
    ApiTags('Admin: permissions'),
    ApiSession(),
    ApiOperation({
      summary: 'Declare the product’s permission catalogue, whole',
      description:
        'Rules in order: the body (400; distinct `resource:action` keys), PERMISSION_LIMIT (422, 500), ' +
        'PERMISSION_RESERVED (409: a key of the service’s), PERMISSION_IN_USE (409: a removed key that roles carry, ' +
        'with their count) unless force=true, which takes it out of them (role.updated each). Event ' +
        'permissions.catalogue_changed. Owners and admins hold every product permission.',
    }),
    ApiQuery({ name: 'force', required: false, enum: ['true', 'false'] }),
    ApiOkResponse({ type: ProductCatalogueResponse }),
    ApiErrorResponse(HttpStatus.FORBIDDEN, 'No session, or not a super-administrator', [FORBIDDEN_BODY]),
    jsonBody([ROLE_ERRORS.invalidPermissions, ROLE_ERRORS.invalidDescription]),
    refusals(HttpStatus.CONFLICT, 'A key of the service’s, or a removed key that roles carry', [
      [ROLE_ERRORS.permissionReserved, { permission: 'members:read' }],
      [ROLE_ERRORS.permissionInUse, { permission: 'reports:export', roles: 2 }],
    ]),
    refusals(HttpStatus.UNPROCESSABLE_ENTITY, 'Too many permissions', [[ROLE_ERRORS.catalogueLimit, { limit: 500 }]]),
  );
