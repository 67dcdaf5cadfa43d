import { Body, Controller, Get, HttpCode, HttpStatus, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { auditActor } from '../audit/audit-event';
import { Caller, CurrentCaller } from '../auth/caller';
import { SessionGuard } from '../auth/session.guard';
import { AnonymousIsUnauthorized, SuperAdminGuard } from '../auth/super-admin.guard';
import { FailureResponse } from '../common/failure-response';
import { PAGING_ERRORS } from '../common/paging';
import { ApiErrorResponse, ApiSession, FORBIDDEN_BODY, UNAUTHORIZED_BODY } from '../common/openapi';
import { ApiJsonBody, DtoPipe } from '../common/validate-body';
import { TENANT_ERRORS } from './admin-tenants.messages';
import { AdminTenantsService } from './admin-tenants.service';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { asksForPage, ListTenantsQueryDto, statusesOf } from './dto/list-tenants.query';
import { CreatedTenantResponse, TenantListResponse } from './dto/tenant.response';
import { TENANT_LIFECYCLE_ERRORS } from './tenant-lifecycle.messages';

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
  @ApiOperation({
    summary: 'List every tenant but the deleted ones (spec 4.3), or those with the statuses asked for',
    description:
      'Without `limit` or `cursor`: the whole list in one answer (spec 4.3), streamed as it is read. ' +
      'With either: a page (`limit`, default 50, at most 100), and `nextCursor` while more follow: ' +
      'the way to read a large list.',
  })
  @ApiOkResponse({ type: TenantListResponse, description: 'Without `limit` or `cursor`, no `nextCursor`' })
  @ApiErrorResponse(400, 'A status outside the list, or a bad `limit` or `cursor`', [
    { error: TENANT_LIFECYCLE_ERRORS.invalidStatus },
    { error: PAGING_ERRORS.invalidLimit },
    { error: PAGING_ERRORS.invalidCursor },
  ])
  @FailureResponse({ error: TENANT_ERRORS.listFailed }, { documentedWith: [{ error: TENANT_ERRORS.fetchFailed }] })
  async listTenants(@Query(DtoPipe(ListTenantsQueryDto)) query: ListTenantsQueryDto, @Res() response: Response) {
    if (asksForPage(query)) response.json(await this.service.page(statusesOf(query), query));
    else await this.service.stream(statusesOf(query), response);
  }

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({ summary: 'Create a tenant with status pending_owner (spec 4.4)' })
  @ApiCreatedResponse({ type: CreatedTenantResponse })
  @ApiJsonBody('Name or type missing, or type not allowed', [
    { error: TENANT_ERRORS.nameRequired },
    { error: TENANT_ERRORS.typeRequired },
    { error: TENANT_ERRORS.invalidType },
  ])
  @FailureResponse({ error: TENANT_ERRORS.createFailed })
  createTenant(@Body(DtoPipe(CreateTenantDto)) dto: CreateTenantDto, @CurrentCaller() caller: Caller) {
    return this.service.create(dto, auditActor(caller));
  }
}
