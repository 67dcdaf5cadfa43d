import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { TenantEntity } from '../database/entities';
import { InvitationsModule } from '../invitations/invitations.module';
import { AdminTenantsController } from './admin-tenants.controller';
import { AdminTenantsService } from './admin-tenants.service';
import { TenantLifecycleController } from './tenant-lifecycle.controller';
import { TenantLifecycleService } from './tenant-lifecycle.service';
import { TenantsRepository } from './tenants.repository';

@Module({
  // InvitationsModule: a rename drops the tenant's cached name (InvitationsStore).
  imports: [AuditModule, InvitationsModule, TypeOrmModule.forFeature([TenantEntity])],
  controllers: [AdminTenantsController, TenantLifecycleController],
  providers: [AdminTenantsService, TenantLifecycleService, TenantsRepository],
  // The operator CLI creates, suspends, reactivates and deletes tenants by the same rules.
  exports: [AdminTenantsService, TenantLifecycleService],
})
export class AdminTenantsModule {}
