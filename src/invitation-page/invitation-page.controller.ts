import { applyDecorators, Controller, Get, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiPublic } from '../common/openapi';
import { InvitationPageEnabledGuard } from './invitation-page-enabled.guard';
import { InvitationPageService } from './invitation-page.service';
import { FAILED_MESSAGE, sendInvitationPage } from './invitation-page.view';

const TOKEN = { name: 'token', description: 'The invitation token from the e-mail link' };
const PAGE = { schema: { type: 'string' } } as const;

/** The token parameter and the pages answered, each with the status of the API answer behind it. */
const ApiInvitationPage = (success: string) =>
  applyDecorators(
    ApiParam(TOKEN),
    ApiResponse({ status: 200, description: success, ...PAGE }),
    ApiResponse({
      status: 400,
      description: 'A page saying that the invitation was already accepted, or has expired',
      ...PAGE,
    }),
    ApiResponse({ status: 404, description: 'A page saying that the link is not valid', ...PAGE }),
    ApiResponse({ status: 500, description: `A page saying "${FAILED_MESSAGE}"`, ...PAGE }),
  );

/** Issue 13: the page at `<base>/invitations/<token>`, the link of the invitation e-mail. Outside /api. */
@ApiTags('Invitation page (HTML)')
@ApiPublic()
@ApiProduces('text/html')
@Controller('invitations')
@UseGuards(InvitationPageEnabledGuard)
export class InvitationPageController {
  constructor(private readonly page: InvitationPageService) {}

  @Get(':token')
  @ApiOperation({
    summary: 'The HTML page that an invitation link opens (INVITATION_PAGE, default true; 404 when false)',
    description:
      'Reads the invitation as GET /api/invitations/{token} does (a pending one past expiresAt is stored expired) ' +
      'and shows it with an "Accept invitation" button; it never accepts. The status is that of the API answer.',
  })
  @ApiInvitationPage('The invitation: organisation, invited address, role, expiry, Accept button')
  async showInvitationPage(@Param('token') token: string, @Res() response: Response) {
    sendInvitationPage(response, await this.page.show(token));
  }

  @Post(':token')
  @ApiOperation({
    summary: "The page's Accept button: a plain form POST, no body read",
    description: 'Accepts as POST /api/invitations/{token} does, to the same state, and shows the result as a page.',
  })
  @ApiInvitationPage('A page naming the organisation and role joined')
  async acceptInvitationFromPage(@Param('token') token: string, @Res() response: Response) {
    sendInvitationPage(response, await this.page.accept(token));
  }
}
