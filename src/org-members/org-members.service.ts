import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { IncomingHttpHeaders } from 'node:http';
import { Repository } from 'typeorm';
import { Caller } from '../auth/caller';
import { ApiError, messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { InvitationEntity, TenantEntity } from '../database/entities';
import { tenantDisplayName } from '../database/entities/tenant.entity';
import { IdentityStore } from '../identity/identity-store';
import { InvitationOutbox } from '../mail/outbox/invitation-outbox';
import { InvitationOutboxWorker } from '../mail/outbox/invitation-outbox.worker';
import { Metrics } from '../metrics/metrics';
import { baseAddress } from './base-address';
import { InvitationResponse, toInvitationResponse } from './dto/invitation.response';
import { InviteDto } from './dto/invite.dto';

export const INVITATION_VALIDITY_MS = 7 * 24 * 60 * 60 * 1_000;

/** Spec 4.9 and 4.10: an organisation's owners and admins invite and remove members. */
@Injectable()
export class OrgMembersService {
  private readonly logger = new Logger(OrgMembersService.name);

  constructor(
    private readonly identity: IdentityStore,
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
    private readonly outbox: InvitationOutbox,
    private readonly outboxWorker: InvitationOutboxWorker,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** Spec 4.9 rules 8–12; rules 1–7 ran in the guards (body, session, org admin, rate limit). */
  async invite(
    caller: Caller,
    dto: InviteDto,
    headers: IncomingHttpHeaders,
  ): Promise<{ success: true; invitation: InvitationResponse }> {
    const tenantId = caller.tenantId!; // OrgAdminGuard lets no caller without a tenant through
    return this.failingWith('Failed to create invitation', async () => {
      // Rule 8.
      if (await this.identity.findTenantMemberByEmail(tenantId, dto.email)) {
        throw new ApiError(HttpStatus.BAD_REQUEST, 'User is already a member of this organisation');
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
      const tenant = await this.tenants.findOneBy({ id: tenantId });
      await this.outbox.createInvitation(invitation, {
        to: invitation.email, // the stored address: the one rule 8 checked is the one that gets the e-mail
        tenantName: tenantDisplayName(tenant?.name),
        inviterEmail: caller.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt,
        link: `${baseAddress(headers, this.config.publicBaseUrl)}/invitations/${encodeURIComponent(invitation.id)}`,
      });
      this.metrics.invitationCreated();
      this.outboxWorker.kick();
      // Rule 11.
      return { success: true, invitation: toInvitationResponse(invitation, dto.email) };
    });
  }

  /** Spec 4.10 rules 4–9; rules 1–3 ran in the guards. */
  async removeMember(caller: Caller, id: string): Promise<{ success: true }> {
    return this.failingWith('Failed to remove user', async () => {
      // Rule 4.
      if (id === caller.id) throw new ApiError(HttpStatus.BAD_REQUEST, 'Cannot remove yourself');
      // Rule 5.
      const target = await this.identity.findById(id);
      if (!target) throw new ApiError(HttpStatus.NOT_FOUND, 'User not found');
      // Rule 4 again on the stored id: a store may match ids loosely (case, or trailing spaces on MySQL).
      if (target.id === caller.id) throw new ApiError(HttpStatus.BAD_REQUEST, 'Cannot remove yourself');
      // Rule 6.
      if (target.tenantId !== caller.tenantId) {
        throw new ApiError(HttpStatus.FORBIDDEN, 'User is not in your organisation');
      }
      // Rule 7.
      if (caller.role === 'admin' && target.role === 'owner') {
        throw new ApiError(HttpStatus.FORBIDDEN, 'Admins cannot remove owners');
      }
      // Rule 8.
      await this.identity.removeFromTenant(target.id);
      return { success: true as const };
    });
  }

  /** Runs one operation; a spec answer passes through, anything else is logged and becomes the spec's 500. */
  private async failingWith<T>(error: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (failure) {
      if (failure instanceof ApiError) throw failure;
      this.logger.error(`${error}: ${messageOf(failure)}`);
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, error);
    }
  }
}
