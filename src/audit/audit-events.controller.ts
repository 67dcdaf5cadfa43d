import { applyDecorators, Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, RequirePermission } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { SuperAdminGuard } from '../auth/super-admin.guard';
import { FailureResponse } from '../common/failure-response';
import { ApiErrorResponse, ApiSession, FORBIDDEN_BODY, UNAUTHORIZED_BODY } from '../common/openapi';
import { DtoPipe } from '../common/validate-body';
import { AuditEventsService } from './audit-events.service';
import { AUDIT_MESSAGES } from './audit.messages';
import { AuditEventPageResponse } from './dto/audit-event.response';
import { AUDIT_QUERY_ERRORS, ListAuditEventsQuery } from './dto/list-audit-events.query';

/** What both listings document: the page, the filter errors and the 500. */
const ApiAuditEventList = (summary: string) =>
  applyDecorators(
    ApiTags('Audit trail'),
    ApiSession(),
    ApiOperation({ summary }),
    ApiOkResponse({ type: AuditEventPageResponse }),
    ApiErrorResponse(
      400,
      'A filter or the cursor is malformed',
      Object.values(AUDIT_QUERY_ERRORS).map((error) => ({ error })),
    ),
    FailureResponse({ error: AUDIT_MESSAGES.listFailed }),
  );

@Controller('api/admin/audit-events')
@UseGuards(SessionGuard, SuperAdminGuard)
export class AdminAuditEventsController {
  constructor(private readonly service: AuditEventsService) {}

  /** Section 5: on /api/admin routes other than tenants, any failed check is 403. */
  @Get()
  @ApiAuditEventList('Every tenant’s audit events, newest first')
  @ApiErrorResponse(403, 'No session, or the caller is not a super-administrator', [FORBIDDEN_BODY])
  listAuditEvents(@Query(DtoPipe(ListAuditEventsQuery)) query: ListAuditEventsQuery) {
    return this.service.list(query, null);
  }
}

@Controller('api/org/audit-events')
export class OrgAuditEventsController {
  constructor(private readonly service: AuditEventsService) {}

  /** Session, org admin by claims then by the stored record, then the filters. */
  @Get()
  @ApiAuditEventList('The caller’s organisation’s audit events, newest first')
  @ApiErrorResponse(401, 'No session', [UNAUTHORIZED_BODY])
  @ApiErrorResponse(403, 'Not an owner or admin of an organisation', [
    { error: AUDIT_MESSAGES.notOrgUser },
    { error: AUDIT_MESSAGES.notOwnerOrAdmin },
  ])
  @UseGuards(SessionGuard, OrgAdminGuard)
  @RequirePermission('audit:read', {
    notOrgUser: AUDIT_MESSAGES.notOrgUser,
    notOwnerOrAdmin: AUDIT_MESSAGES.notOwnerOrAdmin,
  })
  listOrgAuditEvents(
    @CurrentOrgCaller() caller: OrgCaller,
    @Query(DtoPipe(ListAuditEventsQuery)) query: ListAuditEventsQuery,
  ) {
    return this.service.list(query, caller.tenantId);
  }
}
