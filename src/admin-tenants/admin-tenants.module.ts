import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AdminTenantsController } from './admin-tenants.controller';
import { AdminTenantsService } from './admin-tenants.service';
import { TenantsStore } from './tenants.store';

@Module({
  imports: [AuditModule],
  controllers: [AdminTenantsController],
  providers: [AdminTenantsService, TenantsStore],
  // The operator CLI creates tenants by the same rules.
  exports: [AdminTenantsService],
})
export class AdminTenantsModule {}
