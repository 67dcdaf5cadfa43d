/**
 * The owners' set-ups (docs/roles.md: `sso:manage`, `scim:manage`): a permission that only base roles
 * hold and no custom role may carry, declared on the route and checked last, on the caller's stored
 * role, once OrgAdminGuard has let an owner or admin in and the route's other guards have answered.
 * So an admin meets, in order, what every org route answers first (a suspended tenant, single sign-on
 * required, a set-up not configured) and only then the route's own 403.
 */
import { applyDecorators, CanActivate, ExecutionContext, HttpStatus, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { ApiError } from '../common/api-error';
import { baseRoleHolds, REQUIRED_PERMISSION_EXTENSION, ServicePermission } from '../permissions/permission-catalogue';
import { OrgCaller } from './caller';

const OWNER_PERMISSION_RULE = 'ownerPermission:rule';

interface OwnerPermissionRule {
  permission: ServicePermission;
  /** The 403's `error`. */
  message: string;
}

/** The owner-only permission a route needs, and the message of its 403; the API document names the permission. */
export const RequireOwnerPermission = (permission: ServicePermission, message: string) =>
  applyDecorators(
    SetMetadata(OWNER_PERMISSION_RULE, { permission, message } satisfies OwnerPermissionRule),
    ApiExtension(REQUIRED_PERMISSION_EXTENSION, permission),
  );

/** Runs after OrgAdminGuard (request.user is the OrgCaller with the stored role) and the route's other guards. */
@Injectable()
export class OwnerPermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const rule = this.reflector.getAllAndOverride<OwnerPermissionRule | undefined>(OWNER_PERMISSION_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) return true;
    const caller: OrgCaller = context.switchToHttp().getRequest().user;
    if (!baseRoleHolds(caller.role, rule.permission)) throw new ApiError(HttpStatus.FORBIDDEN, rule.message);
    return true;
  }
}
