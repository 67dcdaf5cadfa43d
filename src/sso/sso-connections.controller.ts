import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, OrgAdminMessagesFor } from '../auth/org-admin.guard';
import { OwnerPermissionGuard, RequireOwnerPermission } from '../auth/owner-permission.guard';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { FORBIDDEN } from '../common/messages';
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { CreateConnectionBody, CreateConnectionPipe, SetEnforcementBody, SetEnforcementPipe } from './dto/sso-bodies';
import { SsoConfiguredGuard } from './sso-configured.guard';
import { SsoConnectionsService } from './sso-connections.service';
import {
  ApiConnectionAttempts,
  ApiCreateConnection,
  ApiDeleteConnection,
  ApiGetConnection,
  ApiGetEnforcement,
  ApiSetEnforcement,
  ApiSsoEnforcement,
  ApiListConnections,
  ApiRefreshConnection,
  ApiSsoConnections,
  ApiTestConnection,
  ApiUpdateConnection,
} from './sso.docs';
import { SSO_FAILURES, SSO_GUARD_MESSAGES } from './sso.messages';

/** An organisation's single sign-on connections (docs/sso.md): `sso:manage`, which only owners hold. */
@Controller('api/org/sso/connections')
@ApiSsoConnections()
@UseGuards(SessionGuard, OrgAdminGuard, SsoConfiguredGuard, OwnerPermissionGuard)
@OrgAdminMessagesFor(SSO_GUARD_MESSAGES)
@RequireOwnerPermission('sso:manage', FORBIDDEN)
export class SsoConnectionsController {
  constructor(
    private readonly connections: SsoConnectionsService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiCreateConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  createSsoConnection(
    @CurrentOrgCaller() caller: OrgCaller,
    @Body(CreateConnectionPipe) body: CreateConnectionBody,
    @RequestOrigin() origin: string,
  ) {
    return this.connections.create(caller, body, this.base(origin));
  }

  @Get()
  @ApiListConnections()
  @FailureResponse({ error: SSO_FAILURES.connections })
  listSsoConnections(@CurrentOrgCaller() caller: OrgCaller, @RequestOrigin() origin: string) {
    return this.connections.list(caller, this.base(origin));
  }

  @Get(':id')
  @ApiGetConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  getSsoConnection(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string, @RequestOrigin() origin: string) {
    return this.connections.get(caller, id, this.base(origin));
  }

  @Patch(':id')
  @ApiUpdateConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  updateSsoConnection(
    @CurrentOrgCaller() caller: OrgCaller,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestOrigin() origin: string,
  ) {
    return this.connections.update(caller, id, body, this.base(origin));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiDeleteConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  deleteSsoConnection(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.connections.remove(caller, id);
  }

  @Post(':id/refresh')
  @HttpCode(HttpStatus.OK)
  @ApiRefreshConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  refreshSsoConnection(
    @CurrentOrgCaller() caller: OrgCaller,
    @Param('id') id: string,
    @RequestOrigin() origin: string,
  ) {
    return this.connections.refresh(caller, id, this.base(origin));
  }

  @Post(':id/test')
  @HttpCode(HttpStatus.OK)
  @ApiTestConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  testSsoConnection(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string, @RequestOrigin() origin: string) {
    return this.connections.test(caller, id, this.base(origin));
  }

  @Get(':id/attempts')
  @ApiConnectionAttempts()
  @FailureResponse({ error: SSO_FAILURES.connections })
  listSsoAttempts(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.connections.attempts(caller, id);
  }

  /** This service's address as providers and browsers see it: PUBLIC_BASE_URL, else the request's origin. */
  private base(origin: string): string {
    return this.config.publicBaseUrl ?? origin;
  }
}

/**
 * Whether the organisation requires single sign-on of its members (docs/sso.md, "Enforcement"):
 * owners and admins read it, by the base roles alone; changing it is `sso:manage`.
 */
@Controller('api/org/sso')
@ApiSsoEnforcement()
@UseGuards(SessionGuard, OrgAdminGuard, SsoConfiguredGuard, OwnerPermissionGuard)
@OrgAdminMessagesFor(SSO_GUARD_MESSAGES)
export class SsoEnforcementController {
  constructor(private readonly connections: SsoConnectionsService) {}

  @Get()
  @ApiGetEnforcement()
  @FailureResponse({ error: SSO_FAILURES.connections })
  getSsoEnforcement(@CurrentOrgCaller() caller: OrgCaller, @RequestOrigin() origin: string) {
    return this.connections.enforcement(caller, origin);
  }

  @Patch()
  @RequireOwnerPermission('sso:manage', FORBIDDEN)
  @ApiSetEnforcement()
  @FailureResponse({ error: SSO_FAILURES.connections })
  setSsoEnforcement(
    @CurrentOrgCaller() caller: OrgCaller,
    @Body(SetEnforcementPipe) body: SetEnforcementBody,
    @RequestOrigin() origin: string,
  ) {
    return this.connections.setEnforcement(caller, body, origin);
  }
}
