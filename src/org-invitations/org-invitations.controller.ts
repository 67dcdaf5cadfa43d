import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, RequirePermission } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { Idempotent } from '../idempotency/idempotent';
import { IdempotencyGuard } from '../idempotency/idempotency.guard';
import { RequestOrigin } from '../common/request-origin';
import { DtoPipe } from '../common/validate-body';
import { InviteThrottlerGuard } from '../rate-limit/invite-throttler.guard';
import { ListInvitationsQueryDto } from './dto/list-invitations.query';
import {
  ApiListInvitations,
  ApiOrgInvitations,
  ApiResendInvitation,
  ApiRevokeInvitation,
} from './org-invitations.docs';
import { ORG_INVITATION_ERRORS } from './org-invitations.messages';
import { OrgInvitationsService } from './org-invitations.service';

/** The guard's refusals on these routes: the base roles open them to owners and admins (the id is the token). */
const GUARD_MESSAGES = {
  notOrgUser: ORG_INVITATION_ERRORS.notOrgUser,
  notOwnerOrAdmin: ORG_INVITATION_ERRORS.notOwnerOrAdmin,
};

/** The session first, then the query. */
@Controller('api/org/invitations')
@ApiOrgInvitations()
@UseGuards(SessionGuard, OrgAdminGuard)
export class OrgInvitationsController {
  constructor(private readonly service: OrgInvitationsService) {}

  @Get()
  @RequirePermission('invitations:read', GUARD_MESSAGES)
  @ApiListInvitations()
  @FailureResponse({ error: ORG_INVITATION_ERRORS.listFailed })
  listInvitations(
    @CurrentOrgCaller() caller: OrgCaller,
    @Query(DtoPipe(ListInvitationsQueryDto)) query: ListInvitationsQueryDto,
  ) {
    return this.service.list(caller, query);
  }

  @Delete(':id')
  @RequirePermission('invitations:revoke', GUARD_MESSAGES)
  @ApiRevokeInvitation()
  @FailureResponse({ error: ORG_INVITATION_ERRORS.revokeFailed })
  revokeInvitation(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string) {
    return this.service.revoke(caller, id);
  }

  /**
   * Counted against the caller's invitation limit (InviteThrottlerGuard, after the class's guards),
   * whatever its outcome; an Idempotency-Key is checked before the count.
   */
  @Post(':id/resend')
  @RequirePermission('invitations:create', GUARD_MESSAGES)
  @ApiResendInvitation()
  @FailureResponse({ error: ORG_INVITATION_ERRORS.resendFailed })
  @Idempotent()
  @HttpCode(HttpStatus.OK)
  @UseGuards(IdempotencyGuard, InviteThrottlerGuard)
  resendInvitation(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string, @RequestOrigin() origin: string) {
    return this.service.resend(caller, id, origin);
  }
}
