import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, OrgAdminMessagesFor } from '../auth/org-admin.guard';
import { OwnerPermissionGuard, RequireOwnerPermission } from '../auth/owner-permission.guard';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { FORBIDDEN, NOT_ORG_USER } from '../common/messages';
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { CreateSetupLinkBody, CreateSetupLinkPipe } from './dto/setup-link-bodies';
import { ApiCreateSetupLink, ApiListSetupLinks, ApiOrgSetupLinks, ApiRevokeSetupLink } from './setup-links.docs';
import { SETUP_FAILURES } from './setup-links.messages';
import { SetupLinksService } from './setup-links.service';

/** An organisation's setup links (docs/setup-links.md): `setup_links:manage`, which only owners hold. */
@Controller('api/org/setup-links')
@ApiOrgSetupLinks()
@UseGuards(SessionGuard, OrgAdminGuard, OwnerPermissionGuard)
@OrgAdminMessagesFor({ notOrgUser: NOT_ORG_USER, notOwnerOrAdmin: FORBIDDEN })
@RequireOwnerPermission('setup_links:manage', FORBIDDEN)
export class SetupLinksController {
  constructor(
    private readonly links: SetupLinksService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiCreateSetupLink()
  @FailureResponse({ error: SETUP_FAILURES.links })
  createSetupLink(
    @CurrentOrgCaller() caller: OrgCaller,
    @Body(CreateSetupLinkPipe) body: CreateSetupLinkBody,
    @RequestOrigin() origin: string,
  ) {
    return this.links.create(caller, body, this.config.publicBaseUrl ?? origin);
  }

  @Get()
  @ApiListSetupLinks()
  @FailureResponse({ error: SETUP_FAILURES.links })
  listSetupLinks(@CurrentOrgCaller() caller: OrgCaller) {
    return this.links.list(caller);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiRevokeSetupLink()
  @FailureResponse({ error: SETUP_FAILURES.links })
  revokeSetupLink(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.links.revoke(caller, id);
  }
}
