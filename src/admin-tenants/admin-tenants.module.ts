import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { TenantEntity } from '../database/entities';
import { AdminTenantsController } from './admin-tenants.controller';
import { AdminTenantsService } from './admin-tenants.service';

@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([TenantEntity])],
  controllers: [AdminTenantsController],
  providers: [AdminTenantsService],
  // The operator CLI creates tenants by the same rules.
  exports: [AdminTenantsService],
})
export class AdminTenantsModule {}
