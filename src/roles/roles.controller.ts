import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Put,
  Query,
  UseGuards,
} from '@nestjs/common';
import { auditActor } from '../audit/audit-event';
import { Caller, CurrentCaller, CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { CurrentCallerRoles, OrgAdminGuard, RequirePermission } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { SuperAdminGuard } from '../auth/super-admin.guard';
import { ApiError } from '../common/api-error';
import { FailureResponse } from '../common/failure-response';
import { UNAUTHORIZED } from '../common/messages';
import { MEMBER_ERRORS } from '../org-members/org-members.messages';
import { HeldRoles } from '../permissions/grants.store';
import {
  CheckPermissionsDto,
  CreateRoleDto,
  SetMemberRolesDto,
  SetProductPermissionsDto,
  UpdateRoleDto,
} from './dto/role-bodies';
import { RoleBodyPipe } from './dto/role-body.pipe';
import { MemberRolesService } from './member-roles.service';
import { OrgRolesService } from './org-roles.service';
import { PermissionCatalogueService } from './permission-catalogue.service';
import {
  ApiCheckPermissions,
  ApiCreateRole,
  ApiDeleteRole,
  ApiGetRole,
  ApiListPermissions,
  ApiListRoles,
  ApiMyPermissions,
  ApiOrgRoles,
  ApiSetMemberRoles,
  ApiSetProductPermissions,
  ApiUpdateRole,
} from './roles.docs';
import { ROLES_FAILURES, ROLES_MANAGE_MESSAGES, ROLES_READ_MESSAGES } from './roles.messages';

/** An organisation's roles (docs/roles.md): any member reads them, roles:manage changes them (body after guards). */
@Controller('api/org/roles')
@ApiOrgRoles()
@UseGuards(SessionGuard, OrgAdminGuard)
export class OrgRolesController {
  constructor(private readonly roles: OrgRolesService) {}

  @Get()
  @RequirePermission('members:read', ROLES_READ_MESSAGES)
  @ApiListRoles()
  @FailureResponse({ error: ROLES_FAILURES.roles })
  listRoles(@CurrentOrgCaller() caller: OrgCaller) {
    return this.roles.list(caller);
  }

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @RequirePermission('roles:manage', ROLES_MANAGE_MESSAGES)
  @ApiCreateRole()
  @FailureResponse({ error: ROLES_FAILURES.roles })
  createRole(@CurrentOrgCaller() caller: OrgCaller, @Body(RoleBodyPipe(CreateRoleDto)) dto: CreateRoleDto) {
    return this.roles.create(caller, dto);
  }

  @Get(':key')
  @RequirePermission('members:read', ROLES_READ_MESSAGES)
  @ApiGetRole()
  @FailureResponse({ error: ROLES_FAILURES.roles })
  getRole(@CurrentOrgCaller() caller: OrgCaller, @Param('key') key: string) {
    return this.roles.get(caller, key);
  }

  @Patch(':key')
  @RequirePermission('roles:manage', ROLES_MANAGE_MESSAGES)
  @ApiUpdateRole()
  @FailureResponse({ error: ROLES_FAILURES.roles })
  updateRole(
    @CurrentOrgCaller() caller: OrgCaller,
    @Param('key') key: string,
    @Body(RoleBodyPipe(UpdateRoleDto)) dto: UpdateRoleDto,
  ) {
    return this.roles.update(caller, key, dto);
  }

  @Delete(':key')
  @RequirePermission('roles:manage', ROLES_MANAGE_MESSAGES)
  @ApiDeleteRole()
  @FailureResponse({ error: ROLES_FAILURES.roles })
  deleteRole(
    @CurrentOrgCaller() caller: OrgCaller,
    @Param('key') key: string,
    @Query('reassignTo') reassignTo: unknown,
  ) {
    return this.roles.delete(caller, key, reassignTo);
  }
}

/** Who holds which roles, and what a member may do now: the portal's questions. */
@Controller('api/org')
@UseGuards(SessionGuard, OrgAdminGuard)
export class MemberRolesController {
  constructor(private readonly members: MemberRolesService) {}

  @Put('members/:id/roles')
  @RequirePermission('members:set_role', {
    notOrgUser: MEMBER_ERRORS.notOrgUser,
    notOwnerOrAdmin: MEMBER_ERRORS.notOwnerOrAdmin,
  })
  @ApiSetMemberRoles()
  @FailureResponse({ error: ROLES_FAILURES.memberRoles })
  setMemberRoles(
    @CurrentOrgCaller() caller: OrgCaller,
    @Param('id') id: string,
    @Body(RoleBodyPipe(SetMemberRolesDto)) dto: SetMemberRolesDto,
  ) {
    return this.members.setRoles(caller, id, dto);
  }

  @Post('permissions/check')
  @HttpCode(HttpStatus.OK)
  @RequirePermission('members:read', ROLES_READ_MESSAGES, { readsCallerRoles: true })
  @ApiCheckPermissions()
  @FailureResponse({ error: ROLES_FAILURES.permissions })
  checkPermissions(
    @CurrentOrgCaller() caller: OrgCaller,
    @Body(RoleBodyPipe(CheckPermissionsDto)) dto: CheckPermissionsDto,
    @CurrentCallerRoles() callerRoles: HeldRoles | undefined,
  ) {
    return this.members.check(caller, dto, callerRoles);
  }
}

/** The permission catalogue, and the signed-in person's own permissions: any session. */
@Controller()
export class PermissionsController {
  constructor(
    private readonly members: MemberRolesService,
    private readonly catalogue: PermissionCatalogueService,
  ) {}

  @Get('api/me/permissions')
  @UseGuards(SessionGuard)
  @ApiMyPermissions()
  @FailureResponse({ error: ROLES_FAILURES.permissions })
  getMyPermissions(@CurrentCaller() caller: Caller | undefined) {
    return this.members.mine(signedIn(caller));
  }

  @Get('api/permissions')
  @UseGuards(SessionGuard)
  @ApiListPermissions()
  @FailureResponse({ error: ROLES_FAILURES.permissions })
  listPermissions(@CurrentCaller() caller: Caller | undefined) {
    signedIn(caller);
    return this.catalogue.list();
  }

  /** Section 5: on /api/admin routes other than tenants, any failed check is 403. */
  @Put('api/admin/permissions')
  @UseGuards(SessionGuard, SuperAdminGuard)
  @ApiSetProductPermissions()
  @FailureResponse({ error: ROLES_FAILURES.catalogue })
  setProductPermissions(
    @CurrentCaller() caller: Caller,
    @Body(RoleBodyPipe(SetProductPermissionsDto)) dto: SetProductPermissionsDto,
    @Query('force') force: unknown,
  ) {
    return this.catalogue.replace(dto, force, auditActor(caller));
  }
}

/** The caller, or 401 `{"error":"Unauthorized"}` without a session. */
function signedIn(caller: Caller | undefined): Caller {
  if (!caller) throw new ApiError(HttpStatus.UNAUTHORIZED, UNAUTHORIZED);
  return caller;
}
