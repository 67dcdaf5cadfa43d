import { Body, Controller, Get, HttpCode, HttpStatus, Post, Put, UseGuards } from '@nestjs/common';
import { FailureResponse } from '../common/failure-response';
import { ScimAdminService, SCIM_ADMIN_ERRORS } from '../scim/scim-admin.service';
import { ApiCreateScimToken, ApiGetScimRoleMapping, ApiPutScimRoleMapping } from '../scim/scim-tokens.docs';
import { ApiSetupRoutes, intentRefusal } from './setup-links.docs';
import { CurrentSetup, SetupIntentOf, SetupSessionGuard } from './setup-session.guard';
import { SetupSession } from './setup-sessions.service';

/** The SCIM step (docs/setup-links.md): the org routes of docs/scim.md, with the link's organisation. */
@Controller('api/setup/scim')
@ApiSetupRoutes('Setup: SCIM')
@intentRefusal()
@UseGuards(SetupSessionGuard)
@SetupIntentOf('scim')
export class SetupScimController {
  constructor(private readonly scim: ScimAdminService) {}

  @Post('tokens')
  @HttpCode(HttpStatus.CREATED)
  @ApiCreateScimToken()
  @FailureResponse({ error: SCIM_ADMIN_ERRORS.failed })
  createSetupScimToken(@CurrentSetup() { caller }: SetupSession) {
    return this.scim.createToken(caller);
  }

  @Get('role-mapping')
  @ApiGetScimRoleMapping()
  @FailureResponse({ error: SCIM_ADMIN_ERRORS.failed })
  getSetupScimRoleMapping(@CurrentSetup() { caller }: SetupSession) {
    return this.scim.roleMapping(caller);
  }

  @Put('role-mapping')
  @ApiPutScimRoleMapping()
  @FailureResponse({ error: SCIM_ADMIN_ERRORS.failed })
  putSetupScimRoleMapping(@CurrentSetup() { caller }: SetupSession, @Body() body: unknown) {
    return this.scim.setRoleMapping(caller, body);
  }
}
