import { Controller, Delete, Get, HttpCode, HttpStatus, Param, UseGuards } from '@nestjs/common';
import { Caller, CurrentCaller, CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, RequirePermission } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { SuperAdminGuard } from '../auth/super-admin.guard';
import { FailureResponse } from '../common/failure-response';
import { SessionsResponse } from './dto/sessions.response';
import { ApiMemberSessions, ApiRevokeMemberSessions, ApiRevokeUserSessions } from './sessions.docs';
import { MEMBER_SESSION_MESSAGES, SESSION_FAILURES } from './sessions.messages';
import { SessionsService } from './sessions.service';

/** An organisation's owners and admins see and end a member's sessions (permission `sessions:revoke`). */
@Controller('api/org/members/:id/sessions')
@UseGuards(SessionGuard, OrgAdminGuard)
@RequirePermission('sessions:revoke', MEMBER_SESSION_MESSAGES)
export class MemberSessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @ApiMemberSessions(SessionsResponse)
  @FailureResponse({ error: SESSION_FAILURES.list })
  async listMemberSessions(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string): Promise<SessionsResponse> {
    const member = await this.sessions.memberOf(caller, id, false);
    return this.sessions.list(member.id, caller.sessionId);
  }

  /** Every session of the member and a "not before"; only owners end an owner's. */
  @Delete()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiRevokeMemberSessions()
  @FailureResponse({ error: SESSION_FAILURES.revoke })
  async revokeMemberSessions(@CurrentOrgCaller() caller: OrgCaller, @Param('id') id: string): Promise<void> {
    await this.sessions.revokeMemberSessions(caller, id);
  }
}

/** A super-admin ends any user's sessions. */
@Controller('api/admin/users/:id/sessions')
@UseGuards(SessionGuard, SuperAdminGuard)
export class UserSessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Delete()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiRevokeUserSessions()
  @FailureResponse({ error: SESSION_FAILURES.revoke })
  async revokeUserSessions(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.sessions.revokeUserSessions(caller, id);
  }
}
