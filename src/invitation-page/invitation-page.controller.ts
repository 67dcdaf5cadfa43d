import { applyDecorators, Controller, Get, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller, CurrentCaller } from '../auth/caller';
import { SessionGuard } from '../auth/session.guard';
import { ApiBrowserRoute, ErrorBody } from '../common/openapi';
import { AppConfig } from '../config/app-config';
import { InvitationPageEnabledGuard } from './invitation-page-enabled.guard';
import { InvitationPageService } from './invitation-page.service';
import { FAILED_MESSAGE, sendInvitationPage } from './invitation-page.view';
import { pageVisitor } from './page-visitor';

const TOKEN = { name: 'token', description: 'The invitation token from the e-mail link' };
const PAGE = { schema: { type: 'string' } } as const;

/** The token parameter and the pages answered, each with the status of the API answer behind it. */
const ApiInvitationPage = (success: string) =>
  applyDecorators(
    ApiParam(TOKEN),
    ApiExtraModels(ErrorBody),
    ApiResponse({ status: 200, description: success, ...PAGE }),
    ApiResponse({
      status: 400,
      description: 'A page saying that the invitation was already accepted, or has expired',
      ...PAGE,
    }),
    ApiResponse({
      status: 404,
      description:
        'A page saying that the link is not valid; with INVITATION_PAGE=false, the route is not served: ' +
        '{"error":"Cannot GET /invitations/…"}, as any path without a route',
      content: {
        'text/html': PAGE,
        'application/json': { schema: { $ref: getSchemaPath(ErrorBody) } },
      },
    }),
    ApiResponse({ status: 500, description: `A page saying "${FAILED_MESSAGE}"`, ...PAGE }),
  );

/**
 * The page at `<base>/invitations/<token>`, the link of the invitation e-mail. Outside /api.
 * It reads the visitor's session, when there is one (SessionGuard never refuses).
 */
@ApiTags('Invitation page (HTML)')
@ApiBrowserRoute()
@ApiProduces('text/html')
@Controller('invitations')
@UseGuards(InvitationPageEnabledGuard, SessionGuard)
export class InvitationPageController {
  constructor(
    private readonly page: InvitationPageService,
    private readonly config: AppConfig,
  ) {}

  @Get(':token')
  @ApiOperation({
    summary: 'The HTML page that an invitation link opens (INVITATION_PAGE, default true; 404 when false)',
    description:
      'Reads the invitation as GET /api/invitations/{token} does (a pending one past expiresAt is stored expired) ' +
      'and shows it; it never accepts. A visitor signed in with the invited address gets "Accept and join"; one signed ' +
      'in with another address is told that the invitation is for another address; one without a session gets ' +
      '"Sign in to accept" (SIGN_IN_URL, with the page as return_to) or, without SIGN_IN_URL, "Accept invitation". ' +
      'The status is that of the API answer.',
  })
  @ApiInvitationPage('The invitation: organisation, invited address, role, expiry, and the way forward')
  async showInvitationPage(
    @Param('token') token: string,
    @CurrentCaller() caller: Caller | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    sendInvitationPage(response, await this.page.show(token, pageVisitor(this.config, request, caller, token, false)));
  }

  @Post(':token')
  @ApiOperation({
    summary: "The page's button: a plain form POST, no body read",
    description:
      'A visitor signed in with the invited address joins as POST /api/invitations/{token}/join does (202 while the ' +
      'user pool has yet to take the membership; 403 and 409 for its refusals), when the request comes from the page ' +
      "itself (Origin): another site cannot submit it with the visitor's session. Without a session: 401 with the " +
      "sign-in link when SIGN_IN_URL is set, otherwise the spec's accept, as POST /api/invitations/{token} does, " +
      'which makes nobody a member. The result is shown as a page.',
  })
  @ApiInvitationPage('A page naming the organisation and the role: joined, or (the spec accept) accepted')
  @ApiResponse({
    status: 202,
    description: 'Joined; the user pool has yet to take the membership (cognito mode)',
    ...PAGE,
  })
  @ApiResponse({
    status: 401,
    description: 'No session and SIGN_IN_URL set: the invitation with the sign-in link',
    ...PAGE,
  })
  @ApiResponse({ status: 403, description: 'Signed in with another address, or an unverified one', ...PAGE })
  @ApiResponse({
    status: 409,
    description: 'A member of another organisation, or the address is another account’s',
    ...PAGE,
  })
  async acceptInvitationFromPage(
    @Param('token') token: string,
    @CurrentCaller() caller: Caller | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    sendInvitationPage(response, await this.page.accept(token, pageVisitor(this.config, request, caller, token, true)));
  }
}
