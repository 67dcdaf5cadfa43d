import { HttpStatus, Injectable } from '@nestjs/common';
import { Caller, OrgCaller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { validateBody } from '../common/validate-body';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { IdentityStore } from '../identity/identity-store';
import { toCreatedInvitationResponse } from '../invitations/dto/created-invitation.response';
import { InvitationIssuer } from '../invitations/invitation-issuer';
import { MemberPermissions } from '../permissions/member-permissions';
import { CreatedTenantInvitationResponse } from './dto/tenant-invitation.response';
import { TenantInvitationDto } from './dto/tenant-invitation.dto';
import { TENANT_INVITATION_ERRORS } from './tenant-invitations.messages';

/**
 * A super-admin (or the operator CLI) invites someone into a tenant with any role: how a tenant
 * gets its first owner. The invitation is stored, e-mailed and audited as an org invitation is.
 */
@Injectable()
export class TenantInvitationsService {
  constructor(
    private readonly tenants: TenantStatusReader,
    private readonly identity: IdentityStore,
    private readonly issuer: InvitationIssuer,
    private readonly permissions: MemberPermissions,
  ) {}

  /**
   * In order: an unknown tenant (404) or a deleted one (409), the body (400), the custom roles it
   * names (422: a super-admin may give any of the tenant's roles, docs/roles.md), an address that a
   * member of the tenant already has (400, as spec 4.9 rule 8); then the invitation, from `inviter`.
   * `origin` is the links' base unless PUBLIC_BASE_URL is set.
   */
  async invite(
    tenantId: string,
    body: unknown,
    inviter: Pick<Caller, 'id' | 'email'>,
    origin: string,
  ): Promise<CreatedTenantInvitationResponse> {
    const status = await this.tenants.statusOf(tenantId);
    if (status === null) throw new ApiError(HttpStatus.NOT_FOUND, TENANT_INVITATION_ERRORS.tenantNotFound);
    if (status === 'deleted') throw new ApiError(HttpStatus.CONFLICT, TENANT_INVITATION_ERRORS.tenantDeleted);
    const dto = validateBody(TenantInvitationDto, body);
    const roles = [...(dto.roles ?? [])].sort();
    await this.permissions.grantable(tenantId, roles, null);
    if (await this.identity.findTenantMemberByEmail(tenantId, dto.email)) {
      throw new ApiError(HttpStatus.BAD_REQUEST, TENANT_INVITATION_ERRORS.alreadyMember);
    }
    const caller: OrgCaller = { id: inviter.id, email: inviter.email, userType: null, tenantId, role: null };
    const invitation = (await this.issuer.issue(caller, dto.email, dto.role, origin, undefined, roles))!;
    return { success: true, invitation: toCreatedInvitationResponse(invitation, dto.email, roles) };
  }
}
