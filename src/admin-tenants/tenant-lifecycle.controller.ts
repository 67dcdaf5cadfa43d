import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { auditActor } from '../audit/audit-event';
import { Caller, CurrentCaller } from '../auth/caller';
import { SessionGuard } from '../auth/session.guard';
import { SuperAdminGuard } from '../auth/super-admin.guard';
import { FailureResponse } from '../common/failure-response';
import { DtoPipe } from '../common/validate-body';
import { SuspendTenantDto } from './dto/suspend-tenant.dto';
import { UpdateTenantDto } from './dto/update-tenant.dto';
import {
  ApiDeleteTenant,
  ApiReactivateTenant,
  ApiReadTenant,
  ApiSuspendTenant,
  ApiTenantLifecycle,
  ApiUpdateTenant,
} from './tenant-lifecycle.docs';
import { TENANT_LIFECYCLE_ERRORS } from './tenant-lifecycle.messages';
import { TenantLifecycleService } from './tenant-lifecycle.service';

/**
 * One tenant's lifecycle (docs/tenant-lifecycle.md), for super-administrators. These are "other
 * /api/admin routes" of spec section 5: a caller with no session is refused 403, as every other
 * failed check. Authorisation first, then the body, then the tenant.
 */
@Controller('api/admin/tenants/:id')
@ApiTenantLifecycle()
@UseGuards(SessionGuard, SuperAdminGuard)
export class TenantLifecycleController {
  constructor(private readonly service: TenantLifecycleService) {}

  @Get()
  @ApiReadTenant()
  @FailureResponse({ error: TENANT_LIFECYCLE_ERRORS.readFailed })
  readTenant(@Param('id') id: string) {
    return this.service.read(id);
  }

  @Patch()
  @ApiUpdateTenant()
  @FailureResponse({ error: TENANT_LIFECYCLE_ERRORS.updateFailed })
  updateTenant(
    @Param('id') id: string,
    @Body(DtoPipe(UpdateTenantDto)) dto: UpdateTenantDto,
    @CurrentCaller() caller: Caller,
  ) {
    return this.service.update(id, dto, auditActor(caller));
  }

  @Post('suspend')
  @HttpCode(HttpStatus.OK)
  @ApiSuspendTenant()
  @FailureResponse({ error: TENANT_LIFECYCLE_ERRORS.suspendFailed })
  suspendTenant(
    @Param('id') id: string,
    @Body(DtoPipe(SuspendTenantDto)) dto: SuspendTenantDto,
    @CurrentCaller() caller: Caller,
  ) {
    return this.service.suspend(id, dto, auditActor(caller));
  }

  @Post('reactivate')
  @HttpCode(HttpStatus.OK)
  @ApiReactivateTenant()
  @FailureResponse({ error: TENANT_LIFECYCLE_ERRORS.reactivateFailed })
  reactivateTenant(@Param('id') id: string, @CurrentCaller() caller: Caller) {
    return this.service.reactivate(id, auditActor(caller));
  }

  @Delete()
  @ApiDeleteTenant()
  @FailureResponse({ error: TENANT_LIFECYCLE_ERRORS.deleteFailed })
  deleteTenant(@Param('id') id: string, @CurrentCaller() caller: Caller) {
    return this.service.delete(id, auditActor(caller));
  }
}
