import { Body, Controller, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, FORBIDDEN_BODY, UNAUTHORIZED_BODY } from '../common/openapi';
import { Caller, CurrentCaller } from '../auth/caller';
import { SessionGuard } from '../auth/session.guard';
import { AnonymousIsUnauthorized, SuperAdminGuard } from '../auth/super-admin.guard';
import { FailureResponse } from '../common/failure-response';
import { EMAIL_REQUIRED } from '../common/messages';
import { RequestOrigin } from '../common/request-origin';
import { ApiJsonBody } from '../common/validate-body';
import { INVITE_ERRORS } from '../invitations/invitation.messages';
import { CreatedTenantInvitationResponse } from './dto/tenant-invitation.response';
import { TenantInvitationDto } from './dto/tenant-invitation.dto';
import { TENANT_INVITATION_ERRORS } from './tenant-invitations.messages';
import { TenantInvitationsService } from './tenant-invitations.service';

/** Beside the tenant routes of spec 4.3–4.4, under their section 5 rules. */
@ApiTags('Admin: tenants')
@ApiSession()
@ApiErrorResponse(401, 'No session (spec section 5: on these routes only)', [UNAUTHORIZED_BODY])
@ApiErrorResponse(403, 'The caller is not a super-administrator', [FORBIDDEN_BODY])
@Controller('api/admin/tenants')
@UseGuards(SessionGuard, SuperAdminGuard)
@AnonymousIsUnauthorized()
export class TenantInvitationsController {
  constructor(private readonly service: TenantInvitationsService) {}

  @Post(':id/invitations')
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({
    summary: 'Invite someone into a tenant with any role, owner included: how a tenant gets its first owner',
    description:
      'Stored, e-mailed and audited (invitation.created) as an org invitation, with invitedBy the super-admin. ' +
      'The invitee joins with POST /api/invitations/{token}/join; an owner’s join makes a pending_owner tenant active.',
  })
  @ApiParam({ name: 'id', description: 'The tenant id' })
  @ApiBody({ type: TenantInvitationDto })
  @ApiCreatedResponse({ type: CreatedTenantInvitationResponse })
  @ApiJsonBody('Invalid body, or a member of the tenant already has the address', [
    { error: EMAIL_REQUIRED },
    { error: INVITE_ERRORS.invalidEmail },
    { error: TENANT_INVITATION_ERRORS.invalidRole },
    { error: TENANT_INVITATION_ERRORS.alreadyMember },
  ])
  @ApiErrorResponse(404, 'No such tenant', [{ error: TENANT_INVITATION_ERRORS.tenantNotFound }])
  @FailureResponse({ error: TENANT_INVITATION_ERRORS.createFailed })
  inviteToTenant(
    @Param('id') id: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
    @RequestOrigin() origin: string,
  ) {
    return this.service.invite(id, body, caller, origin);
  }
}
