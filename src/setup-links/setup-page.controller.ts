import { Controller, Get, HttpStatus, NotFoundException, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { setupScript } from './page/setup-page.assets';
import { ApiSetupPageScript, ApiShowSetupPage } from './page/setup-page.docs';
import { SetupPageService } from './page/setup-page.service';
import { ApiSetupBrowser } from './setup-links.docs';
import { sendSetupPage, SETUP_SCRIPT_ROUTE } from './setup-page.view';

/** `GET /setup`, where an opened link leads (setup-page.view.ts), and the page's script. */
@Controller()
@ApiSetupBrowser()
export class SetupPageController {
  constructor(
    private readonly page: SetupPageService,
    private readonly config: AppConfig,
  ) {}

  @Get('setup')
  @ApiShowSetupPage()
  async showSetupPage(@Req() request: Request, @RequestOrigin() origin: string, @Res() response: Response) {
    sendSetupPage(response, await this.page.model(request.headers.cookie, this.config.publicBaseUrl ?? origin));
  }

  @Get(`${SETUP_SCRIPT_ROUTE}/:file`)
  @ApiSetupPageScript()
  setupPageScript(@Param('file') file: string, @Res() response: Response) {
    const script = setupScript(file);
    if (script === undefined) throw new NotFoundException();
    response.status(HttpStatus.OK).set('Cache-Control', 'no-cache').type('text/javascript').send(script);
  }
}
