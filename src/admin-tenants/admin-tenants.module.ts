import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantEntity } from '../database/entities';
import { AdminTenantsController } from './admin-tenants.controller';
import { AdminTenantsService } from './admin-tenants.service';

@Module({
  imports: [TypeOrmModule.forFeature([TenantEntity])],
  controllers: [AdminTenantsController],
  providers: [AdminTenantsService],
  // The operator CLI creates tenants by the same rules.
  exports: [AdminTenantsService],
})
export class AdminTenantsModule {}
