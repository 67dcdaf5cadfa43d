import { Controller, Get, UseGuards } from '@nestjs/common';
import { CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, RequirePermission } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { ApiInviteQuota, INVITE_QUOTA_ERRORS } from './invite-quota.docs';
import { InviteQuota } from './invite-quota';

/** Owners and admins, as the invite and the resend whose quota it is. */
@Controller('api/org/invite/quota')
export class InviteQuotaController {
  constructor(private readonly quota: InviteQuota) {}

  @Get()
  @ApiInviteQuota()
  @FailureResponse({ error: INVITE_QUOTA_ERRORS.readFailed })
  @UseGuards(SessionGuard, OrgAdminGuard)
  @RequirePermission('invitations:create', {
    notOrgUser: INVITE_QUOTA_ERRORS.notOrgUser,
    notOwnerOrAdmin: INVITE_QUOTA_ERRORS.notOwnerOrAdmin,
  })
  getInviteQuota(@CurrentOrgCaller() caller: OrgCaller) {
    return this.quota.of(caller);
  }
}
