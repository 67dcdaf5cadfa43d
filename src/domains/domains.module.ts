import { Module } from '@nestjs/common';
import { AdminTenantsModule } from '../admin-tenants/admin-tenants.module';
import { AuditModule } from '../audit/audit.module';
import { InvitationsModule } from '../invitations/invitations.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { JoiningModule } from '../joining/joining.module';
import { AdminDomainsService } from './admin-domains.service';
import { DnsTxtLookup } from './dns-txt-lookup';
import { DomainRechecks } from './domain-rechecks';
import {
  AdminDomainsController,
  JoinRequestsController,
  MeController,
  OrgDomainsController,
} from './domains.controller';
import { DomainsService } from './domains.service';
import { DomainsStore } from './domains.store';
import { MeService } from './me.service';

/** Verified domains, join modes and requests, and the signed-in person's routes (docs/domains.md). */
@Module({
  imports: [AuditModule, IdempotencyModule, JoiningModule, AdminTenantsModule, InvitationsModule],
  controllers: [OrgDomainsController, JoinRequestsController, MeController, AdminDomainsController],
  providers: [DomainsService, DomainsStore, DnsTxtLookup, DomainRechecks, MeService, AdminDomainsService],
})
export class DomainsModule {}
