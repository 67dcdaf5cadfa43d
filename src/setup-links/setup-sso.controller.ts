import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { FailureResponse } from '../common/failure-response';
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { CreateConnectionBody, CreateConnectionPipe } from '../sso/dto/sso-bodies';
import { SsoConfiguredGuard } from '../sso/sso-configured.guard';
import { SsoConnectionsService } from '../sso/sso-connections.service';
import {
  ApiConnectionAttempts,
  ApiCreateConnection,
  ApiDeleteConnection,
  ApiGetConnection,
  ApiListConnections,
  ApiTestConnection,
  ApiUpdateConnection,
} from '../sso/sso.docs';
import { SSO_FAILURES } from '../sso/sso.messages';
import { ApiSetupRoutes, intentRefusal } from './setup-links.docs';
import { CurrentSetup, SetupIntentOf, SetupSessionGuard } from './setup-session.guard';
import { SetupSession } from './setup-sessions.service';
import { SetupStepsService } from './setup-steps.service';

/**
 * The single sign-on step (docs/setup-links.md): the org routes of docs/sso.md, with the link's
 * organisation. A connection made here starts draft and becomes active only by a successful test
 * sign-in of an address in one of the organisation's proven domains.
 */
@Controller('api/setup/sso/connections')
@ApiSetupRoutes('Setup: single sign-on')
@intentRefusal()
@UseGuards(SetupSessionGuard, SsoConfiguredGuard)
@SetupIntentOf('sso')
export class SetupSsoController {
  constructor(
    private readonly connections: SsoConnectionsService,
    private readonly steps: SetupStepsService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiCreateConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  createSetupConnection(
    @CurrentSetup() session: SetupSession,
    @Body(CreateConnectionPipe) body: CreateConnectionBody,
    @RequestOrigin() origin: string,
  ) {
    return this.steps.createConnection(session, body, this.base(origin));
  }

  @Get()
  @ApiListConnections()
  @FailureResponse({ error: SSO_FAILURES.connections })
  listSetupConnections(@CurrentSetup() { caller }: SetupSession, @RequestOrigin() origin: string) {
    return this.connections.list(caller, this.base(origin));
  }

  @Get(':id')
  @ApiGetConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  getSetupConnection(
    @CurrentSetup() { caller }: SetupSession,
    @Param('id') id: string,
    @RequestOrigin() origin: string,
  ) {
    return this.connections.get(caller, id, this.base(origin));
  }

  @Patch(':id')
  @ApiUpdateConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  updateSetupConnection(
    @CurrentSetup() session: SetupSession,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestOrigin() origin: string,
  ) {
    return this.steps.updateConnection(session, id, body, this.base(origin));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiDeleteConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  deleteSetupConnection(
    @CurrentSetup() session: SetupSession,
    @Param('id') id: string,
    @RequestOrigin() origin: string,
  ) {
    return this.steps.removeConnection(session, id, this.base(origin));
  }

  @Post(':id/test')
  @HttpCode(HttpStatus.OK)
  @ApiTestConnection()
  @FailureResponse({ error: SSO_FAILURES.connections })
  testSetupConnection(
    @CurrentSetup() { caller }: SetupSession,
    @Param('id') id: string,
    @RequestOrigin() origin: string,
  ) {
    return this.connections.test(caller, id, this.base(origin));
  }

  @Get(':id/attempts')
  @ApiConnectionAttempts()
  @FailureResponse({ error: SSO_FAILURES.connections })
  listSetupAttempts(@CurrentSetup() { caller }: SetupSession, @Param('id') id: string) {
    return this.connections.attempts(caller, id);
  }

  /** As the org routes: PUBLIC_BASE_URL, else the request's origin. */
  private base(origin: string): string {
    return this.config.publicBaseUrl ?? origin;
  }
}
