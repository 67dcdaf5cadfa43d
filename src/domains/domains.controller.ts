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
  UseGuards,
} from '@nestjs/common';
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
  ApiJoinRequests,
  ApiListAdminDomains,
  ApiListDomains,
  ApiListJoinRequests,
  ApiOrgDomains,
  ApiReleaseDomain,
  ApiRemoveDomain,
  ApiRotateDomain,
  ApiUpdateDomain,
  ApiVerifyDomain,
} from './domains.docs';
import { DOMAIN_ERRORS, DOMAIN_FAILURES, DOMAIN_GUARD_MESSAGES } from './domains.messages';
import { AddDomainBody, DomainBodyPipe, ReleaseDomainBody } from './dto/domain-bodies';
import { DomainsService } from './domains.service';
import { JoinRequestsService } from './join-requests.service';
import {
  AdminDomainsResponse,
  DecidedJoinRequestResponse,
  DomainAnswer,
  ListDomainsResponse,
  ListJoinRequestsResponse,
  OneDomainResponse,
  ReleasedDomainResponse,
  RemoveDomainResponse,
} from './dto/domain.response';

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
  addDomain(
    @CurrentOrgCaller() caller: OrgCaller,
    @Body(DomainBodyPipe(AddDomainBody, DOMAIN_ERRORS.invalid)) body: AddDomainBody,
  ) {
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
  constructor(private readonly requests: JoinRequestsService) {}

  @Get()
  @ApiListJoinRequests(ListJoinRequestsResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.requests })
  listJoinRequests(@CurrentOrgCaller() caller: OrgCaller, @Query('status') status: unknown) {
    return this.requests.listRequests(caller, status);
  }

  @Post(':id/approve')
  @HttpCode(HttpStatus.OK)
  @ApiDecideJoinRequest(DecidedJoinRequestResponse, true)
  @FailureResponse({ error: DOMAIN_FAILURES.requests })
  approveJoinRequest(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.requests.approve(caller, id);
  }

  @Post(':id/reject')
  @HttpCode(HttpStatus.OK)
  @ApiDecideJoinRequest(DecidedJoinRequestResponse, false)
  @FailureResponse({ error: DOMAIN_FAILURES.requests })
  rejectJoinRequest(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.requests.reject(caller, id);
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
  releaseDomainClaim(
    @CurrentCaller() caller: Caller,
    @Param('name') name: string,
    @Body(DomainBodyPipe(ReleaseDomainBody, DOMAIN_ERRORS.tenantRequired)) body: ReleaseDomainBody,
  ) {
    return this.admin.release(caller, name, body);
  }
}
