import { Body, Controller, Delete, Headers, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiInviteMember, ApiOrgMembers, ApiRemoveMember } from '../api-docs/org-members.docs';
import { Caller, CurrentCaller } from '../auth/caller';
import { OrgAdminGuard, OrgAdminMessagesFor } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { BodyGuard } from '../common/validate-body';
import { InviteThrottlerGuard } from '../rate-limit/invite-throttler.guard';
import { InviteDto } from './dto/invite.dto';
import { OrgMembersService } from './org-members.service';

/** Guards run in the order listed: that order is the spec's order of rules. */
@Controller('api/org')
@ApiOrgMembers()
export class OrgMembersController {
  constructor(private readonly service: OrgMembersService) {}

  /** Spec 4.9: body (rules 1–3), session (4), org admin by claims then by the stored record (5–6), rate limit (7), then the service. */
  @Post('invite')
  @ApiInviteMember()
  @HttpCode(HttpStatus.OK)
  @UseGuards(BodyGuard(InviteDto), SessionGuard, OrgAdminGuard, InviteThrottlerGuard)
  @OrgAdminMessagesFor({
    notOrgUser: 'Only organisation users can invite',
    notOwnerOrAdmin: 'Only owner or admin can invite users',
    failed: 'Failed to create invitation',
  })
  inviteMember(@CurrentCaller() caller: Caller, @Body() dto: InviteDto, @Headers() headers: IncomingHttpHeaders) {
    return this.service.invite(caller, dto, headers);
  }

  /** Spec 4.10: session (rule 1), org admin by claims then by the stored record (2–3), then the service. */
  @Delete('users/:id')
  @ApiRemoveMember()
  @UseGuards(SessionGuard, OrgAdminGuard)
  @OrgAdminMessagesFor({
    notOrgUser: 'Only organisation users can access this',
    notOwnerOrAdmin: 'Only owner or admin can remove users',
    failed: 'Failed to remove user',
  })
  removeMember(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.service.removeMember(caller, id);
  }
}
