import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { FailureResponse } from '../common/failure-response';
import { ApiOpenSetupLink, ApiSetupBrowser } from './setup-links.docs';
import { SETUP_FAILURES } from './setup-links.messages';
import { sendOpening } from './setup-open.view';
import { SetupSessionsService } from './setup-sessions.service';

/** `GET /setup/{token}`, the link that the owner sends (docs/setup-links.md). Outside /api. */
@Controller('setup')
@ApiSetupBrowser()
export class SetupOpenController {
  constructor(private readonly sessions: SetupSessionsService) {}

  @Get(':token')
  @ApiOpenSetupLink()
  @FailureResponse({ error: SETUP_FAILURES.setup })
  async openSetupLink(@Param('token') token: string, @Req() request: Request, @Res() response: Response) {
    sendOpening(response, await this.sessions.open(token, { secure: request.secure, ip: request.ip ?? null }));
  }
}
