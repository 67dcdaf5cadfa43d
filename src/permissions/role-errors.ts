import { HttpStatus } from '@nestjs/common';
import { Refusal, refusalBody, refusalSchema } from '../common/refusal';

/**
 * The refusals of custom roles and permissions (docs/roles.md): `{success:false, error}`, with the
 * role, the permission or the count that the code is about beside it.
 */
export const ROLE_ERRORS = {
  invalidKey: 'INVALID_ROLE_KEY',
  invalidName: 'INVALID_ROLE_NAME',
  invalidDescription: 'INVALID_DESCRIPTION',
  invalidPermissions: 'INVALID_PERMISSIONS',
  invalidRoles: 'INVALID_ROLES',
  invalidBody: 'INVALID_BODY',
  reserved: 'ROLE_RESERVED',
  exists: 'ROLE_EXISTS',
  system: 'ROLE_SYSTEM',
  notFound: 'ROLE_NOT_FOUND',
  inUse: 'ROLE_IN_USE',
  limit: 'ROLE_LIMIT',
  memberLimit: 'MEMBER_ROLE_LIMIT',
  unknownPermission: 'UNKNOWN_PERMISSION',
  notGrantable: 'PERMISSION_NOT_GRANTABLE',
  unknownRole: 'UNKNOWN_ROLE',
  escalation: 'ROLE_ESCALATION',
  ownRoles: 'CANNOT_CHANGE_OWN_ROLES',
  ownerProtected: 'ONLY_OWNERS_CHANGE_OWNERS',
  permissionInUse: 'PERMISSION_IN_USE',
  permissionReserved: 'PERMISSION_RESERVED',
  catalogueLimit: 'PERMISSION_LIMIT',
  userNotFound: 'USER_NOT_FOUND',
} as const;
export type RoleErrorCode = (typeof ROLE_ERRORS)[keyof typeof ROLE_ERRORS];

/** What a refusal names beside its code. */
export interface RoleErrorDetails {
  role?: string;
  permission?: string;
  members?: number;
  roles?: number;
  limit?: number;
}

export const roleErrorBody = (error: RoleErrorCode, details: RoleErrorDetails = {}) => refusalBody(error, details);

export const roleRefusal = (status: HttpStatus, error: RoleErrorCode, details?: RoleErrorDetails) =>
  new Refusal(status, error, details);

/** The body of roleRefusal, for the API document. */
export const RoleErrorBody = refusalSchema('RoleErrorBody', Object.values(ROLE_ERRORS), {
  role: { type: 'string', description: 'The role the refusal is about (UNKNOWN_ROLE)' },
  permission: {
    type: 'string',
    description: 'The permission the refusal is about (UNKNOWN_PERMISSION, ROLE_ESCALATION, PERMISSION_IN_USE, …)',
  },
  members: { type: 'number', description: 'ROLE_IN_USE: how many members hold the role' },
  roles: { type: 'number', description: 'PERMISSION_IN_USE: how many roles carry the permission' },
  limit: { type: 'number', description: 'ROLE_LIMIT, MEMBER_ROLE_LIMIT, PERMISSION_LIMIT: the limit' },
});
