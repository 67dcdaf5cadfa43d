import { Controller, Get, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { FailureResponse } from '../common/failure-response';
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { SetupCompletedAnswer, SetupOverview } from './dto/setup-link.response';
import { ApiSetupRoutes, setupRefusals } from './setup-links.docs';
import { SETUP_ERRORS, SETUP_FAILURES } from './setup-links.messages';
import { SetupApiService } from './setup-api.service';
import { CurrentSetup, SetupSessionGuard } from './setup-session.guard';
import { SetupSession } from './setup-sessions.service';

/** The setup session's own routes (docs/setup-links.md): what it sets up, and its end. */
@Controller('api/setup')
@ApiSetupRoutes('Setup')
@UseGuards(SetupSessionGuard)
export class SetupApiController {
  constructor(
    private readonly setup: SetupApiService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The organisation, the granted intents, the link’s expiry and each granted step’s state' })
  @ApiOkResponse({ type: SetupOverview })
  @FailureResponse({ error: SETUP_FAILURES.setup })
  getSetup(@CurrentSetup() session: SetupSession, @RequestOrigin() origin: string) {
    return this.setup.overview(session, this.config.publicBaseUrl ?? origin);
  }

  @Post('complete')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Complete the setup: the link is closed, and its session with it; the owners are e-mailed',
    description: 'Event setup_link.completed.',
  })
  @ApiOkResponse({ type: SetupCompletedAnswer })
  @setupRefusals(HttpStatus.CONFLICT, 'The link closed meanwhile', [SETUP_ERRORS.closed])
  @FailureResponse({ error: SETUP_FAILURES.setup })
  completeSetup(@CurrentSetup() session: SetupSession) {
    return this.setup.complete(session);
  }
}
