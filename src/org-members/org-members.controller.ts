import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, RequirePermission } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { Idempotent } from '../idempotency/idempotent';
import { IdempotencyGuard } from '../idempotency/idempotency.guard';
import { RequestOrigin } from '../common/request-origin';
import { PageQueryDto } from '../common/paging';
import { BodyGuard, DtoPipe } from '../common/validate-body';
import { InviteThrottlerGuard } from '../rate-limit/invite-throttler.guard';
import { ChangeRoleDto } from './dto/change-role.dto';
import { InviteDto } from '../invitations/dto/invite.dto';
import {
  ApiChangeMemberRole,
  ApiInviteMember,
  ApiListMembers,
  ApiOrgMembers,
  ApiRemoveMember,
} from './org-members.docs';
import { INVITE_ERRORS } from '../invitations/invitation.messages';
import { MEMBER_ERRORS, REMOVE_MEMBER_ERRORS } from './org-members.messages';
import { OrgMembersService } from './org-members.service';

/** Guards run in the order listed: that order is the spec's order of rules. */
@Controller('api/org')
@ApiOrgMembers()
export class OrgMembersController {
  constructor(private readonly service: OrgMembersService) {}

  /**
   * Spec 4.9: body (rules 1–3), session (4), org admin by claims then by the stored record (5–6),
   * rate limit (7), then the service. An Idempotency-Key (docs/organisation.md) is checked between 6 and 7.
   */
  @Post('invite')
  @ApiInviteMember()
  @FailureResponse({ error: INVITE_ERRORS.createFailed })
  @Idempotent()
  @HttpCode(HttpStatus.OK)
  @UseGuards(BodyGuard(InviteDto), SessionGuard, OrgAdminGuard, IdempotencyGuard, InviteThrottlerGuard)
  @RequirePermission('invitations:create', {
    notOrgUser: INVITE_ERRORS.notOrgUser,
    notOwnerOrAdmin: INVITE_ERRORS.notOwnerOrAdmin,
  })
  inviteMember(@CurrentOrgCaller() caller: OrgCaller, @Body() dto: InviteDto, @RequestOrigin() origin: string) {
    return this.service.invite(caller, dto, origin);
  }

  /** Spec 4.10: session (rule 1), org admin by claims then by the stored record (2–3), then the service. */
  @Delete('users/:id')
  @ApiRemoveMember()
  @FailureResponse({ error: REMOVE_MEMBER_ERRORS.removeFailed })
  @UseGuards(SessionGuard, OrgAdminGuard)
  @RequirePermission('members:remove', {
    notOrgUser: REMOVE_MEMBER_ERRORS.notOrgUser,
    notOwnerOrAdmin: REMOVE_MEMBER_ERRORS.notOwnerOrAdmin,
  })
  removeMember(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.service.removeMember(caller, id);
  }

  /** Any role of the organisation; the query is checked after the session. */
  @Get('members')
  @ApiListMembers()
  @FailureResponse({ error: MEMBER_ERRORS.listFailed })
  @UseGuards(SessionGuard, OrgAdminGuard)
  @RequirePermission('members:read', { notOrgUser: MEMBER_ERRORS.notOrgUser })
  listMembers(@CurrentOrgCaller() caller: OrgCaller, @Query(DtoPipe(PageQueryDto)) query: PageQueryDto) {
    return this.service.listMembers(caller, query);
  }

  /** Owners and admins; the body is checked after the session. */
  @Patch('members/:id')
  @ApiChangeMemberRole()
  @FailureResponse({ error: MEMBER_ERRORS.updateFailed })
  @UseGuards(SessionGuard, OrgAdminGuard)
  @RequirePermission('members:set_role', {
    notOrgUser: MEMBER_ERRORS.notOrgUser,
    notOwnerOrAdmin: MEMBER_ERRORS.notOwnerOrAdmin,
  })
  changeMemberRole(
    @CurrentOrgCaller() caller: OrgCaller,
    @Param('id') id: string,
    @Body(DtoPipe(ChangeRoleDto)) dto: ChangeRoleDto,
  ) {
    return this.service.changeRole(caller, id, dto);
  }
}
