import { SessionsService } from '../sessions/sessions.service';
import { HttpStatus, Injectable } from '@nestjs/common';
import { auditActor, auditEvents } from '../audit/audit-event';
import { AuditRecorder } from '../audit/audit-recorder';
import { OrgCaller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { USER_NOT_FOUND } from '../common/messages';
import { IdentityStore } from '../identity/identity-store';
import { GrantsStore } from '../permissions/grants.store';
import { MembershipRemovalsStore } from '../memberships/membership-removals.store';
import { Clock } from '../common/clock';
import { MemberPermissions } from '../permissions/member-permissions';
import { InviteMemberResponse, toCreatedInvitationResponse } from '../invitations/dto/created-invitation.response';
import { InvitationIssuer } from '../invitations/invitation-issuer';
import { PageQueryDto, pageRequest, toPage } from '../common/paging';
import { ChangeRoleDto } from './dto/change-role.dto';
import { InviteDto } from '../invitations/dto/invite.dto';
import { ChangeRoleResponse, ListMembersResponse, toMemberResponse } from './dto/member.response';
import { INVITE_ERRORS } from '../invitations/invitation.messages';
import { MEMBER_ERRORS, REMOVE_MEMBER_ERRORS } from './org-members.messages';

/**
 * Spec 4.9 and 4.10: an organisation's owners and admins invite and remove members. Unexpected
 * failures are the routes' @FailureResponse.
 */
@Injectable()
export class OrgMembersService {
  constructor(
    private readonly identity: IdentityStore,
    private readonly issuer: InvitationIssuer,
    private readonly audit: AuditRecorder,
    private readonly grants: GrantsStore,
    private readonly permissions: MemberPermissions,
    private readonly removals: MembershipRemovalsStore,
    private readonly clock: Clock,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * Spec 4.9 rules 8–11; rules 1–7 ran in the guards (body, session, org admin, rate limit).
   * `origin` is the request's (see RequestOrigin): the links' base unless PUBLIC_BASE_URL is set.
   * Custom roles that the body names are checked first (docs/roles.md): a new state, beside the spec's.
   */
  async invite(caller: OrgCaller, dto: InviteDto, origin: string): Promise<InviteMemberResponse> {
    const roles = [...(dto.roles ?? [])].sort();
    await this.permissions.grantable(caller.tenantId, roles, caller);
    // Rule 8, inside the write of rules 9 and 10 where the identity store is in the same database
    // (a round trip less on every invite); before it otherwise.
    const candidates = this.identity.tenantMemberCandidates(caller.tenantId, dto.email);
    if (!candidates) await this.refuseMember(caller, dto.email);
    let invitation = await this.issuer.issue(
      caller,
      dto.email,
      dto.role,
      origin,
      candidates ? { unlessFound: candidates } : undefined,
      roles,
    );
    if (!invitation) {
      // A candidate held the write back: a member with this address, or one that only the
      // database's collation matched, whom rule 8 does not count.
      await this.refuseMember(caller, dto.email);
      invitation = (await this.issuer.issue(caller, dto.email, dto.role, origin, undefined, roles))!;
    }
    // Rule 11.
    return { success: true, invitation: toCreatedInvitationResponse(invitation, dto.email, roles) };
  }

  /** Rule 8: a user of the caller's tenant already has this e-mail. */
  private async refuseMember(caller: OrgCaller, email: string): Promise<void> {
    if (await this.identity.findTenantMemberByEmail(caller.tenantId, email)) {
      throw new ApiError(HttpStatus.BAD_REQUEST, INVITE_ERRORS.alreadyMember);
    }
  }

  /** Spec 4.10 rules 4–8; rules 1–3 ran in the guards. */
  async removeMember(caller: OrgCaller, id: string): Promise<{ success: true }> {
    // Rule 4.
    if (id === caller.id) throw new ApiError(HttpStatus.BAD_REQUEST, REMOVE_MEMBER_ERRORS.cannotRemoveSelf);
    // Rule 5.
    const target = await this.identity.findById(id);
    if (!target) throw new ApiError(HttpStatus.NOT_FOUND, USER_NOT_FOUND);
    // Rule 4 again on the stored id: a store may match ids loosely (case, or trailing spaces on MySQL).
    if (target.id === caller.id) throw new ApiError(HttpStatus.BAD_REQUEST, REMOVE_MEMBER_ERRORS.cannotRemoveSelf);
    // Rule 6.
    if (target.tenantId !== caller.tenantId) {
      throw new ApiError(HttpStatus.FORBIDDEN, REMOVE_MEMBER_ERRORS.notInOrganisation);
    }
    // Rule 7; only owners remove an owner, whatever a custom role gives (docs/roles.md).
    if (caller.role !== 'owner' && target.role === 'owner') {
      throw new ApiError(HttpStatus.FORBIDDEN, REMOVE_MEMBER_ERRORS.adminCannotRemoveOwner);
    }
    // Rule 8. The removal's fact and the custom roles go first: should the identity store then
    // fail, the person keeps less than they had, never more, and the retry removes them.
    const removal = { tenantId: caller.tenantId, userId: target.id, email: target.email, reason: 'removed' as const };
    await this.removals.remember([{ ...removal, at: this.clock.now() }]);
    const roles = await this.grants.removeMember(caller.tenantId, target.id);
    const event = auditEvents.memberRemoved(target, auditActor(caller), roles); // the membership as it was
    await this.identity.removeFromTenant(target.id);
    await this.audit.recordAfterIdentityChange(event);
    await this.sessions.endPersonSessions(target, caller.tenantId, 'removed', auditActor(caller));
    return { success: true };
  }

  /** GET /api/org/members: a page of the caller's tenant, by e-mail then id; the guards confirmed the caller. */
  async listMembers(caller: OrgCaller, query: PageQueryDto): Promise<ListMembersResponse> {
    const request = pageRequest(query, 2);
    const after = request.after && { email: request.after[0], id: request.after[1] };
    const users = await this.identity.listTenantMembers(caller.tenantId, after, request.limit + 1);
    const page = toPage(users, request, (user) => [user.email, user.id]);
    const roles = await this.grants.rolesOfMembers(
      caller.tenantId,
      page.items.map((user) => user.id),
    );
    return {
      members: page.items.map((user) => toMemberResponse(user, roles.get(user.id))),
      ...(page.nextCursor && { nextCursor: page.nextCursor }),
    };
  }

  /**
   * PATCH /api/org/members/{id}, checks in the order of docs/organisation.md (the role itself was
   * checked by the body's DTO). `caller.role` is the stored one (OrgAdminGuard).
   */
  async changeRole(caller: OrgCaller, id: string, dto: ChangeRoleDto): Promise<ChangeRoleResponse> {
    if (id === caller.id) throw new ApiError(HttpStatus.BAD_REQUEST, MEMBER_ERRORS.cannotChangeOwnRole);
    const target = await this.identity.findById(id);
    // Another tenant's user is answered as if it did not exist.
    if (!target || target.tenantId !== caller.tenantId) throw new ApiError(HttpStatus.NOT_FOUND, USER_NOT_FOUND);
    // Again on the stored id: a store may match ids loosely (case, or trailing spaces on MySQL).
    if (target.id === caller.id) throw new ApiError(HttpStatus.BAD_REQUEST, MEMBER_ERRORS.cannotChangeOwnRole);
    // Only owners touch an owner, whatever a custom role gives (docs/roles.md).
    if (caller.role !== 'owner' && target.role === 'owner') {
      throw new ApiError(HttpStatus.FORBIDDEN, MEMBER_ERRORS.adminCannotChangeOwner);
    }
    if (caller.role !== 'owner' && dto.role === 'owner') {
      throw new ApiError(HttpStatus.FORBIDDEN, MEMBER_ERRORS.onlyOwnersGrantOwner);
    }
    // A member whose custom role lets them change roles gives or takes away only what they hold.
    await this.permissions.refuseBaseRoleEscalation(caller, [target.role, dto.role]);
    const [, roles] = await Promise.all([
      this.identity.setTenantRole(target.id, dto.role),
      this.grants.rolesOfMembers(caller.tenantId, [target.id]),
    ]);
    await this.audit.recordAfterIdentityChange(auditEvents.memberRoleChanged(target, dto.role, auditActor(caller)));
    return { success: true, member: toMemberResponse({ ...target, role: dto.role }, roles.get(target.id)) };
  }
}
