import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, RequirePermission } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { PageQueryDto } from '../common/paging';
import { DtoPipe } from '../common/validate-body';
import { ApiListPeople, ApiOrgPeople } from './org-people.docs';
import { PEOPLE_ERRORS } from './org-people.messages';
import { OrgPeopleService } from './org-people.service';

@Controller('api/org/people')
@ApiOrgPeople()
export class OrgPeopleController {
  constructor(private readonly service: OrgPeopleService) {}

  /** Any role of the organisation; the query is checked after the session. */
  @Get()
  @ApiListPeople()
  @FailureResponse({ error: PEOPLE_ERRORS.listFailed })
  @UseGuards(SessionGuard, OrgAdminGuard)
  @RequirePermission('members:read', { notOrgUser: PEOPLE_ERRORS.notOrgUser })
  listPeople(@CurrentOrgCaller() caller: OrgCaller, @Query(DtoPipe(PageQueryDto)) query: PageQueryDto) {
    return this.service.list(caller, query);
  }
}
