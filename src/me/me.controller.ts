import { Controller, Get, HttpStatus, Param, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { Caller, CurrentCaller } from '../auth/caller';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { ApiJoinableOrganisations, ApiJoinOrganisation } from '../domains/domains.docs';
import { DOMAIN_FAILURES } from '../domains/domains.messages';
import {
  DomainJoinedResponse,
  JoinableOrganisationsResponse,
  JoinRequestedResponse,
} from '../domains/dto/domain.response';
import { MeResponse, MyInvitationsResponse } from './dto/me.response';
import { ApiGetMe, ApiMe, ApiMyInvitations } from './me.docs';
import { MeService } from './me.service';

/** The signed-in person's side: any session. */
@Controller('api/me')
@ApiMe()
@UseGuards(SessionGuard)
export class MeController {
  constructor(
    private readonly me: MeService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiGetMe(MeResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.me })
  getMe(@CurrentCaller() caller: Caller | undefined) {
    return this.me.me(caller);
  }

  @Get('invitations')
  @ApiMyInvitations(MyInvitationsResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.me })
  listMyInvitations(@CurrentCaller() caller: Caller | undefined) {
    return this.me.invitations(caller);
  }

  @Get('joinable-organisations')
  @ApiJoinableOrganisations(JoinableOrganisationsResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.me })
  listJoinableOrganisations(@CurrentCaller() caller: Caller | undefined) {
    return this.me.joinable(caller);
  }

  @Post('joinable-organisations/:tenantId/join')
  @ApiJoinOrganisation(DomainJoinedResponse, JoinRequestedResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.join })
  async joinOrganisation(
    @CurrentCaller() caller: Caller | undefined,
    @Param('tenantId') tenantId: string,
    @RequestOrigin() origin: string,
    @Res({ passthrough: true }) response: Response,
  ) {
    const outcome = await this.me.join(caller, tenantId, this.config.publicBaseUrl ?? origin);
    // 200: a member now; 202: a request filed, or a membership still on its way to the user pool.
    if ('requested' in outcome) {
      response.status(HttpStatus.ACCEPTED);
      return outcome.requested;
    }
    response.status(outcome.joined.pending ? HttpStatus.ACCEPTED : HttpStatus.OK);
    return outcome.joined;
  }
}
