import { HttpStatus, Injectable } from '@nestjs/common';
import { auditActor } from '../audit/audit-event';
import { OrgCaller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { pageRequest, toPage } from '../common/paging';
import { InvitationEntity } from '../database/entities';
import { ResendInvitationResponse, toCreatedInvitationResponse } from '../invitations/dto/created-invitation.response';
import { isOpen } from '../invitations/invitation';
import { InvitationIssuer } from '../invitations/invitation-issuer';
import { InvitationsStore } from '../invitations/invitations.store';
import { GrantsStore } from '../permissions/grants.store';
import { MemberPermissions } from '../permissions/member-permissions';
import { ListInvitationsQueryDto } from './dto/list-invitations.query';
import {
  ListInvitationsResponse,
  RevokeInvitationResponse,
  toOrgInvitationResponse,
} from './dto/org-invitation.response';
import { ORG_INVITATION_ERRORS } from './org-invitations.messages';

/**
 * An organisation's owners and admins list, revoke and resend its invitations.
 * The guards confirmed the caller; unexpected failures are the routes' @FailureResponse.
 */
@Injectable()
export class OrgInvitationsService {
  constructor(
    private readonly invitations: InvitationsStore,
    private readonly issuer: InvitationIssuer,
    private readonly clock: Clock,
    private readonly grants: GrantsStore,
    private readonly permissions: MemberPermissions,
  ) {}

  /** Route 3: a page of the tenant's invitations, by e-mail then id, filtered on the effective status. */
  async list(caller: OrgCaller, query: ListInvitationsQueryDto): Promise<ListInvitationsResponse> {
    const request = pageRequest(query, 2);
    const now = this.clock.now();
    const statuses = query.status === undefined ? undefined : [query.status].flat();
    const after = request.after && { email: request.after[0], id: request.after[1] };
    const rows = await this.invitations.listForTenant(caller.tenantId, statuses, now, after, request.limit + 1);
    const page = toPage(rows, request, (row) => [row.email, row.id]);
    const roles = await this.grants.rolesOfInvitations(page.items.map((row) => row.id));
    return {
      invitations: page.items.map((row) => toOrgInvitationResponse(row, now, roles.get(row.id))),
      ...(page.nextCursor && { nextCursor: page.nextCursor }),
    };
  }

  /**
   * Route 4: a pending or expired invitation becomes revoked; revoking it again changes nothing.
   * The conditional update decides against a parallel accept: the loser reads the row again.
   */
  async revoke(caller: OrgCaller, id: string): Promise<RevokeInvitationResponse> {
    const invitation = await this.findInTenant(caller, id);
    refuseAccepted(invitation);
    if (isOpen(invitation) && !(await this.invitations.revoke(invitation, auditActor(caller)))) {
      // A parallel accept or revoke got there first: answer what it left.
      refuseAccepted(await this.findInTenant(caller, id));
    }
    return { success: true };
  }

  /**
   * Route 5: a new invitation (new id, so a new token) to the same address with the same role and
   * custom roles, from the caller, valid 7 days, with its e-mail in the outbox; the old one is
   * revoked in the same transaction. The rate limit ran in the guards. Of parallel resends (or a
   * resend and a revoke or accept) of one invitation exactly one goes through; the others are 400.
   * The caller gives the custom roles anew: only those whose permissions it holds (docs/roles.md).
   */
  async resend(caller: OrgCaller, id: string, origin: string): Promise<ResendInvitationResponse> {
    const old = await this.findInTenant(caller, id);
    const cannotResend = new ApiError(HttpStatus.BAD_REQUEST, ORG_INVITATION_ERRORS.cannotResend);
    if (!isOpen(old)) throw cannotResend;
    const roles = (await this.grants.rolesOfInvitations([old.id])).get(old.id) ?? [];
    await this.permissions.grantable(caller.tenantId, roles, caller);
    const invitation = await this.issuer.issue(caller, old.email, old.role, origin, { replacing: old.id }, roles);
    if (!invitation) throw cannotResend;
    return { success: true, invitation: toCreatedInvitationResponse(invitation, invitation.email, roles) };
  }

  /** The tenant's invitation with exactly this id; another tenant's is answered as a missing one. */
  private async findInTenant(caller: OrgCaller, id: string): Promise<InvitationEntity> {
    const invitation = await this.invitations.findById(id);
    if (!invitation || invitation.tenantId !== caller.tenantId)
      throw new ApiError(HttpStatus.NOT_FOUND, ORG_INVITATION_ERRORS.notFound);
    return invitation;
  }
}

function refuseAccepted(invitation: InvitationEntity): void {
  if (invitation.status === 'accepted')
    throw new ApiError(HttpStatus.BAD_REQUEST, ORG_INVITATION_ERRORS.alreadyAccepted);
}
