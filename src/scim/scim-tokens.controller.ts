import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, UseGuards } from '@nestjs/common';
import { CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, OrgAdminMessagesFor } from '../auth/org-admin.guard';
import { OwnerPermissionGuard, RequireOwnerPermission } from '../auth/owner-permission.guard';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { ScimAdminService, SCIM_ADMIN_ERRORS } from './scim-admin.service';
import {
  ApiCreateScimToken,
  ApiGetScimRoleMapping,
  ApiListScimTokens,
  ApiPutScimRoleMapping,
  ApiRevokeScimToken,
  ApiScimAdmin,
} from './scim-tokens.docs';

/** The organisation's SCIM set-up (docs/scim.md), tokens and the role mapping: `scim:manage`, which only owners hold. */
@Controller('api/org/scim')
@ApiScimAdmin()
@UseGuards(SessionGuard, OrgAdminGuard, OwnerPermissionGuard)
@OrgAdminMessagesFor({ notOrgUser: SCIM_ADMIN_ERRORS.notOrgUser, notOwnerOrAdmin: SCIM_ADMIN_ERRORS.notOwner })
@RequireOwnerPermission('scim:manage', SCIM_ADMIN_ERRORS.notOwner)
export class ScimTokensController {
  constructor(private readonly admin: ScimAdminService) {}

  @Post('tokens')
  @HttpCode(HttpStatus.CREATED)
  @ApiCreateScimToken()
  @FailureResponse({ error: SCIM_ADMIN_ERRORS.failed })
  createScimToken(@CurrentOrgCaller() caller: OrgCaller) {
    return this.admin.createToken(caller);
  }

  @Get('tokens')
  @ApiListScimTokens()
  @FailureResponse({ error: SCIM_ADMIN_ERRORS.failed })
  listScimTokens(@CurrentOrgCaller() caller: OrgCaller) {
    return this.admin.listTokens(caller);
  }

  @Delete('tokens/:id')
  @ApiRevokeScimToken()
  @FailureResponse({ error: SCIM_ADMIN_ERRORS.failed })
  revokeScimToken(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.admin.revokeToken(caller, id);
  }

  @Get('role-mapping')
  @ApiGetScimRoleMapping()
  @FailureResponse({ error: SCIM_ADMIN_ERRORS.failed })
  getScimRoleMapping(@CurrentOrgCaller() caller: OrgCaller) {
    return this.admin.roleMapping(caller);
  }

  @Put('role-mapping')
  @ApiPutScimRoleMapping()
  @FailureResponse({ error: SCIM_ADMIN_ERRORS.failed })
  putScimRoleMapping(@CurrentOrgCaller() caller: OrgCaller, @Body() body: unknown) {
    return this.admin.setRoleMapping(caller, body);
  }
}
