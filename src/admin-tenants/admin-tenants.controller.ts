import { Body, Controller, Get, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, FORBIDDEN_BODY, UNAUTHORIZED_BODY } from '../api-docs/api-docs';
import { SessionGuard } from '../auth/session.guard';
import { AnonymousIsUnauthorized, SuperAdminGuard } from '../auth/super-admin.guard';
import { DtoPipe } from '../common/validate-body';
import { AdminTenantsService } from './admin-tenants.service';
import { CreateTenantDto, INVALID_TENANT_TYPE } from './dto/create-tenant.dto';
import { CreatedTenantResponse, TenantListResponse } from './dto/tenant.response';

@ApiTags('Admin: tenants')
@ApiSession()
@ApiErrorResponse(401, 'No session (spec section 5: on these routes only)', [UNAUTHORIZED_BODY])
@ApiErrorResponse(403, 'The caller is not a super-administrator', [FORBIDDEN_BODY])
@Controller('api/admin/tenants')
@UseGuards(SessionGuard, SuperAdminGuard)
@AnonymousIsUnauthorized()
export class AdminTenantsController {
  constructor(private readonly service: AdminTenantsService) {}

  @Get()
  @ApiOperation({ summary: 'List every tenant (spec 4.3)' })
  @ApiOkResponse({ type: TenantListResponse })
  @ApiErrorResponse(500, 'Fetching or listing failed', [{ error: 'Failed to fetch tenants' }, { error: 'Failed to list tenants' }])
  listTenants() {
    return this.service.list();
  }

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({ summary: 'Create a tenant with status pending_owner (spec 4.4)' })
  @ApiCreatedResponse({ type: CreatedTenantResponse })
  @ApiErrorResponse(400, 'Name or type missing, or type not allowed', [
    { error: 'Name is required' },
    { error: 'Type is required' },
    { error: INVALID_TENANT_TYPE },
  ])
  @ApiErrorResponse(500, 'Creating the tenant failed', [{ error: 'Failed to create tenant' }])
  createTenant(@Body(DtoPipe(CreateTenantDto)) dto: CreateTenantDto) {
    return this.service.create(dto);
  }
}
