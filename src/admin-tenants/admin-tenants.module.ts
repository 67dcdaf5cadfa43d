import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { InvitationsModule } from '../invitations/invitations.module';
import { AdminTenantsController } from './admin-tenants.controller';
import { AdminTenantsService } from './admin-tenants.service';
import { TenantLifecycleController } from './tenant-lifecycle.controller';
import { TenantLifecycleService } from './tenant-lifecycle.service';
import { TenantsStore } from './tenants.store';

@Module({
  // InvitationsModule: a rename drops the tenant's cached name (InvitationsStore).
  imports: [AuditModule, InvitationsModule],
  controllers: [AdminTenantsController, TenantLifecycleController],
  providers: [AdminTenantsService, TenantLifecycleService, TenantsStore],
  // The operator CLI creates, suspends, reactivates and deletes tenants by the same rules.
  exports: [AdminTenantsService, TenantLifecycleService, TenantsStore],
})
export class AdminTenantsModule {}
