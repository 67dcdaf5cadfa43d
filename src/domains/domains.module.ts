import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { JoiningModule } from '../joining/joining.module';
import { AdminDomainsService } from './admin-domains.service';
import { DnsTxtLookup } from './dns-txt-lookup';
import { DomainRechecks } from './domain-rechecks';
import { AdminDomainsController, JoinRequestsController, OrgDomainsController } from './domains.controller';
import { DomainJoinsService } from './domain-joins.service';
import { DomainsService } from './domains.service';
import { DomainsStore } from './domains.store';
import { JoinRequestsService } from './join-requests.service';

/** Verified domains, join modes, joins by domain and requests (docs/domains.md). */
@Module({
  imports: [AuditModule, IdempotencyModule, JoiningModule],
  controllers: [OrgDomainsController, JoinRequestsController, AdminDomainsController],
  providers: [
    DomainsService,
    DomainsStore,
    DnsTxtLookup,
    DomainRechecks,
    DomainJoinsService,
    JoinRequestsService,
    AdminDomainsService,
  ],
  exports: [DomainJoinsService, DomainsService, DomainsStore],
})
export class DomainsModule {}
