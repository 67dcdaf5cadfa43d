import { HttpStatus, Injectable } from '@nestjs/common';
import { auditActor, auditEvents } from '../audit/audit-event';
import { AuditRecorder } from '../audit/audit-recorder';
import { Caller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { USER_NOT_FOUND } from '../common/messages';
import { AppConfig } from '../config/app-config';
import { InvitationEntity } from '../database/entities';
import { IdentityStore } from '../identity/identity-store';
import { InvitationsStore, tenantDisplayName } from '../invitations/invitations.store';
import { invitationLink } from '../mail/invitation-message';
import { InvitationOutboxWorker } from '../mail/outbox/invitation-outbox.worker';
import { Metrics } from '../metrics/metrics';
import { InviteMemberResponse, toCreatedInvitationResponse } from './dto/invitation.response';
import { InviteDto } from './dto/invite.dto';
import { INVITE_ERRORS, REMOVE_MEMBER_ERRORS } from './org-members.messages';

export const INVITATION_VALIDITY_MS = 7 * 24 * 60 * 60 * 1_000;

/**
 * Spec 4.9 and 4.10: an organisation's owners and admins invite and remove members. Unexpected
 * failures are the routes' @FailureResponse.
 */
@Injectable()
export class OrgMembersService {
  constructor(
    private readonly identity: IdentityStore,
    private readonly invitations: InvitationsStore,
    private readonly outboxWorker: InvitationOutboxWorker,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly audit: AuditRecorder,
  ) {}

  /**
   * Spec 4.9 rules 8–11; rules 1–7 ran in the guards (body, session, org admin, rate limit).
   * `origin` is the request's (see RequestOrigin): the links' base unless PUBLIC_BASE_URL is set.
   */
  async invite(caller: Caller, dto: InviteDto, origin: string): Promise<InviteMemberResponse> {
    const tenantId = caller.tenantId!; // OrgAdminGuard lets no caller without a tenant through
    // Rule 8.
    if (await this.identity.findTenantMemberByEmail(tenantId, dto.email)) {
      throw new ApiError(HttpStatus.BAD_REQUEST, INVITE_ERRORS.alreadyMember);
    }
    // Rule 9.
    const now = this.clock.now();
    const invitation: InvitationEntity = {
      id: this.ids.uuid(),
      tenantId,
      email: dto.email.toLowerCase(),
      role: dto.role,
      status: 'pending',
      expiresAt: new Date(now.getTime() + INVITATION_VALIDITY_MS),
      invitedBy: caller.id,
      createdAt: now,
    };
    // Rule 10: the e-mail is stored with the invitation, in one transaction, and the outbox
    // worker sends it after the response; a failed send is logged and retried there.
    await this.invitations.create(invitation, {
      to: invitation.email, // the stored address: the one rule 8 checked is the one that gets the e-mail
      tenantName: tenantDisplayName(await this.invitations.findTenantName(tenantId)),
      inviterEmail: caller.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
      link: invitationLink(this.config.publicBaseUrl ?? origin, invitation.id),
    }, auditActor(caller));
    this.metrics.invitationCreated();
    this.outboxWorker.kick();
    // Rule 11.
    return { success: true, invitation: toCreatedInvitationResponse(invitation, dto.email) };
  }

  /** Spec 4.10 rules 4–8; rules 1–3 ran in the guards. */
  async removeMember(caller: Caller, id: string): Promise<{ success: true }> {
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
    // Rule 7.
    if (caller.role === 'admin' && target.role === 'owner') {
      throw new ApiError(HttpStatus.FORBIDDEN, REMOVE_MEMBER_ERRORS.adminCannotRemoveOwner);
    }
    // Rule 8.
    const event = auditEvents.memberRemoved(target, auditActor(caller)); // the membership as it was
    await this.identity.removeFromTenant(target.id);
    await this.audit.recordAfterIdentityChange(event);
    return { success: true };
  }
}
