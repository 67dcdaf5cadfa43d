import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiSetupBrowser, ApiSetupPage } from './setup-links.docs';
import { sendSetupPage } from './setup-page.view';

/** `GET /setup`, where an opened link leads: the setup's pages (setup-page.view.ts), which read /api/setup. */
@Controller('setup')
@ApiSetupBrowser()
export class SetupPageController {
  @Get()
  @ApiSetupPage()
  showSetupPage(@Res() response: Response) {
    sendSetupPage(response);
  }
}
