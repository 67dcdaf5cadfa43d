import { Controller, Get, HttpStatus, Param, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { ApiTestMode } from '../test-mode/test-mode.docs';
import { TestModeKeyGuard } from '../test-mode/test-mode.guard';
import { SetupLinkTokenResponse } from './dto/setup-link.response';
import { hashLinkToken, setupLinkUrl } from './setup-link';
import { setupRefusals } from './setup-links.docs';
import { SETUP_ERRORS, SETUP_REASONS, setupRefusal } from './setup-links.messages';
import { SetupLinksService } from './setup-links.service';
import { SetupLinksStore } from './setup-links.store';

/**
 * Test mode's read-back of a link's token (docs/test-mode.md), so that a suite opens a link without a
 * mailbox: in test mode a token is derived from TEST_MODE_KEY and the link's id, so none is stored.
 */
@Controller('api/test/setup-links')
@ApiTestMode()
@UseGuards(TestModeKeyGuard)
export class SetupLinksTestController {
  constructor(
    private readonly links: SetupLinksService,
    private readonly store: SetupLinksStore,
    private readonly config: AppConfig,
  ) {}

  @Get(':id')
  @ApiOperation({ summary: 'A setup link’s token and URL, in test mode' })
  @ApiParam({ name: 'id', description: 'The setup link’s id' })
  @ApiOkResponse({ type: SetupLinkTokenResponse })
  @setupRefusals(HttpStatus.NOT_FOUND, 'No such link', [SETUP_ERRORS.notFound])
  async readTestSetupLink(@Param('id') id: string, @RequestOrigin() origin: string): Promise<SetupLinkTokenResponse> {
    const link = await this.store.findById(id);
    const token = this.links.tokenFor(id);
    // A link made before test mode was on has a random token: not given back.
    if (!link || link.tokenHash !== hashLinkToken(token))
      throw setupRefusal(HttpStatus.NOT_FOUND, SETUP_ERRORS.notFound, SETUP_REASONS.notFound);
    return { id, token, url: setupLinkUrl(this.config.publicBaseUrl ?? origin, token) };
  }
}
