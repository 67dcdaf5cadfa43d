import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { Response } from 'express';
import { Caller, CurrentCaller, CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, RequirePermission } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { SuperAdminGuard } from '../auth/super-admin.guard';
import { FailureResponse } from '../common/failure-response';
import { IdempotencyGuard } from '../idempotency/idempotency.guard';
import { Idempotent } from '../idempotency/idempotent';
import { AdminDomainsService } from './admin-domains.service';
import {
  ApiAddDomain,
  ApiAdminDomains,
  ApiDecideJoinRequest,
  ApiGetDomain,
  ApiGetMe,
  ApiJoinableOrganisations,
  ApiJoinOrganisation,
  ApiJoinRequests,
  ApiListAdminDomains,
  ApiListDomains,
  ApiListJoinRequests,
  ApiMe,
  ApiMyInvitations,
  ApiOrgDomains,
  ApiReleaseDomain,
  ApiRemoveDomain,
  ApiRotateDomain,
  ApiUpdateDomain,
  ApiVerifyDomain,
} from './domains.docs';
import { DOMAIN_FAILURES, DOMAIN_GUARD_MESSAGES } from './domains.messages';
import { DomainsService } from './domains.service';
import {
  AdminDomainsResponse,
  DecidedJoinRequestResponse,
  DomainAnswer,
  DomainJoinedResponse,
  JoinableOrganisationsResponse,
  JoinRequestedResponse,
  ListDomainsResponse,
  ListJoinRequestsResponse,
  MeResponse,
  MyInvitationsResponse,
  OneDomainResponse,
  ReleasedDomainResponse,
  RemoveDomainResponse,
} from './dto/domain.response';
import { MeService } from './me.service';

/** An organisation's claims on its e-mail domains (docs/domains.md): owners and admins. */
@Controller('api/org/domains')
@ApiOrgDomains()
@UseGuards(SessionGuard, OrgAdminGuard)
@RequirePermission('domains:manage', DOMAIN_GUARD_MESSAGES)
export class OrgDomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Post()
  @ApiAddDomain(DomainAnswer)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  @Idempotent()
  @UseGuards(IdempotencyGuard)
  addDomain(@CurrentOrgCaller() caller: OrgCaller, @Body() body: unknown) {
    return this.domains.add(caller, body);
  }

  @Get()
  @ApiListDomains(ListDomainsResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  listDomains(@CurrentOrgCaller() caller: OrgCaller) {
    return this.domains.list(caller);
  }

  @Get(':name')
  @ApiGetDomain(OneDomainResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  getDomain(@CurrentOrgCaller() caller: OrgCaller, @Param('name') name: string) {
    return this.domains.get(caller, name);
  }

  @Post(':name/verify')
  @HttpCode(HttpStatus.OK)
  @ApiVerifyDomain(DomainAnswer)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  verifyDomain(@CurrentOrgCaller() caller: OrgCaller, @Param('name') name: string) {
    return this.domains.verify(caller, name);
  }

  @Post(':name/rotate')
  @HttpCode(HttpStatus.OK)
  @ApiRotateDomain(DomainAnswer)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  rotateDomain(@CurrentOrgCaller() caller: OrgCaller, @Param('name') name: string) {
    return this.domains.rotate(caller, name);
  }

  @Patch(':name')
  @ApiUpdateDomain(DomainAnswer)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  updateDomain(@CurrentOrgCaller() caller: OrgCaller, @Param('name') name: string, @Body() body: unknown) {
    return this.domains.update(caller, name, body);
  }

  @Delete(':name')
  @ApiRemoveDomain(RemoveDomainResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  removeDomain(@CurrentOrgCaller() caller: OrgCaller, @Param('name') name: string) {
    return this.domains.remove(caller, name);
  }
}

/** Requests to join by a domain in join mode `request`: owners and admins decide. */
@Controller('api/org/join-requests')
@ApiJoinRequests()
@UseGuards(SessionGuard, OrgAdminGuard)
@RequirePermission('join_requests:decide', DOMAIN_GUARD_MESSAGES)
export class JoinRequestsController {
  constructor(private readonly domains: DomainsService) {}

  @Get()
  @ApiListJoinRequests(ListJoinRequestsResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.requests })
  listJoinRequests(@CurrentOrgCaller() caller: OrgCaller, @Query('status') status: unknown) {
    return this.domains.listRequests(caller, status);
  }

  @Post(':id/approve')
  @HttpCode(HttpStatus.OK)
  @ApiDecideJoinRequest(DecidedJoinRequestResponse, true)
  @FailureResponse({ error: DOMAIN_FAILURES.requests })
  approveJoinRequest(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.domains.approve(caller, id);
  }

  @Post(':id/reject')
  @HttpCode(HttpStatus.OK)
  @ApiDecideJoinRequest(DecidedJoinRequestResponse, false)
  @FailureResponse({ error: DOMAIN_FAILURES.requests })
  rejectJoinRequest(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.domains.reject(caller, id);
  }
}

/** The signed-in person's side: any session. */
@Controller('api/me')
@ApiMe()
@UseGuards(SessionGuard)
export class MeController {
  constructor(private readonly me: MeService) {}

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
    @Res({ passthrough: true }) response: Response,
  ) {
    const { status, body } = await this.me.join(caller, tenantId);
    response.status(status);
    return body;
  }
}

/** Operators: the claims of a name across organisations; releasing the wrong organisation's claim. */
@Controller('api/admin/domains')
@ApiAdminDomains()
@UseGuards(SessionGuard, SuperAdminGuard)
export class AdminDomainsController {
  constructor(private readonly admin: AdminDomainsService) {}

  @Get()
  @ApiListAdminDomains(AdminDomainsResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.admin })
  listDomainClaims(@Query('name') name: unknown) {
    return this.admin.list(name);
  }

  @Post(':name/release')
  @HttpCode(HttpStatus.OK)
  @ApiReleaseDomain(ReleasedDomainResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.admin })
  releaseDomainClaim(@CurrentCaller() caller: Caller, @Param('name') name: string, @Body() body: unknown) {
    return this.admin.release(caller, name, body);
  }
}
