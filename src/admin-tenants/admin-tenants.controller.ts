import { Body, Controller, Get, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import { SessionGuard } from '../auth/session.guard';
import { AnonymousIsUnauthorized, SuperAdminGuard } from '../auth/super-admin.guard';
import { DtoPipe } from '../common/validate-body';
import { AdminTenantsService } from './admin-tenants.service';
import { CreateTenantDto } from './dto/create-tenant.dto';

@Controller('api/admin/tenants')
@UseGuards(SessionGuard, SuperAdminGuard)
@AnonymousIsUnauthorized()
export class AdminTenantsController {
  constructor(private readonly service: AdminTenantsService) {}

  @Get()
  listTenants() {
    return this.service.list();
  }

  @Post()
  @HttpCode(HttpStatus.CREATED)
  createTenant(@Body(DtoPipe(CreateTenantDto)) dto: CreateTenantDto) {
    return this.service.create(dto);
  }
}
