import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { FailureResponse } from '../common/failure-response';
import { ApiAddDomain, ApiGetDomain, ApiRemoveDomain, ApiVerifyDomain } from '../domains/domains.docs';
import { DOMAIN_ERRORS, DOMAIN_FAILURES } from '../domains/domains.messages';
import { DomainsService } from '../domains/domains.service';
import { AddDomainBody, DomainBodyPipe } from '../domains/dto/domain-bodies';
import { DomainAnswer, OneDomainResponse, RemoveDomainResponse } from '../domains/dto/domain.response';
import { ApiSetupRoutes, intentRefusal } from './setup-links.docs';
import { CurrentSetup, SetupIntentOf, SetupSessionGuard } from './setup-session.guard';
import { SetupSession } from './setup-sessions.service';
import { SetupStepsService } from './setup-steps.service';

/** The domain step (docs/setup-links.md): the org routes of docs/domains.md, with the link's organisation. */
@Controller('api/setup/domains')
@ApiSetupRoutes('Setup: domains')
@intentRefusal()
@UseGuards(SetupSessionGuard)
@SetupIntentOf('domain')
export class SetupDomainsController {
  constructor(
    private readonly domains: DomainsService,
    private readonly steps: SetupStepsService,
  ) {}

  @Post()
  @ApiAddDomain(DomainAnswer)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  addSetupDomain(
    @CurrentSetup() session: SetupSession,
    @Body(DomainBodyPipe(AddDomainBody, DOMAIN_ERRORS.invalid)) body: AddDomainBody,
  ) {
    return this.steps.addDomain(session, body);
  }

  @Get(':name')
  @ApiGetDomain(OneDomainResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  getSetupDomain(@CurrentSetup() { caller }: SetupSession, @Param('name') name: string) {
    return this.domains.get(caller, name);
  }

  @Post(':name/verify')
  @HttpCode(HttpStatus.OK)
  @ApiVerifyDomain(DomainAnswer)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  verifySetupDomain(@CurrentSetup() { caller }: SetupSession, @Param('name') name: string) {
    return this.domains.verify(caller, name);
  }

  @Delete(':name')
  @ApiRemoveDomain(RemoveDomainResponse)
  @FailureResponse({ error: DOMAIN_FAILURES.domains })
  removeSetupDomain(@CurrentSetup() session: SetupSession, @Param('name') name: string) {
    return this.steps.removeDomain(session, name);
  }
}
