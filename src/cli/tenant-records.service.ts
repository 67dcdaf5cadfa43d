import { HttpException, Injectable } from '@nestjs/common';
import { AdminTenantsService } from '../admin-tenants/admin-tenants.service';
import { CreateTenantDto } from '../admin-tenants/dto/create-tenant.dto';
import { SuspendTenantDto } from '../admin-tenants/dto/suspend-tenant.dto';
import { TenantInvitationResponse } from '../admin-tenants/dto/tenant-invitation.response';
import { TenantResponse } from '../admin-tenants/dto/tenant.response';
import { TenantInvitationsService } from '../admin-tenants/tenant-invitations.service';
import { TenantLifecycleService } from '../admin-tenants/tenant-lifecycle.service';
import { Clock } from '../common/clock';
import { validateBody } from '../common/validate-body';
import { AppConfig } from '../config/app-config';
import { InvitationEntity } from '../database/entities';
import { InvitationsStore } from '../invitations/invitations.store';
import { invitationLink } from '../mail/invitation-message';
import { CliInputError } from './local-users.service';

/** Who invites from the CLI: no signed-in user, so the invitation's invitedBy and the event's actor name the CLI. */
export const CLI_INVITER = { id: 'operator-cli', email: null };

/** An invitation as the CLI prints it: the stored record, times in ISO 8601. */
export interface InvitationRecord {
  id: string;
  tenantId: string;
  email: string;
  role: string;
  status: string;
  expiresAt: string;
  invitedBy: string;
  createdAt: string;
}

/** The API's refusals (4xx) are bad input on the command line, with the API's message. */
async function asCliInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpException && error.getStatus() < 500) {
      throw new CliInputError((error.getResponse() as { error: string }).error);
    }
    throw error;
  }
}

const toInvitationRecord = (invitation: InvitationEntity): InvitationRecord => ({
  ...invitation,
  expiresAt: invitation.expiresAt.toISOString(),
  createdAt: invitation.createdAt.toISOString(),
});

/** The CLI's commands on tenants and invitations: the service's database, in either identity mode. */
@Injectable()
export class TenantRecordsService {
  constructor(
    private readonly tenants: AdminTenantsService,
    private readonly tenantInvitations: TenantInvitationsService,
    private readonly lifecycle: TenantLifecycleService,
    private readonly invitations: InvitationsStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Spec 4.4's rules and record, without the HTTP call: a bad name or type is the API's message. */
  async createTenant(name: string | undefined, type: string | undefined): Promise<TenantResponse> {
    return asCliInput(
      async () => (await this.tenants.create(validateBody(CreateTenantDto, { name, type }), null)).tenant,
    );
  }

  /**
   * POST /api/admin/tenants/{id}/invitations' rules and record, without the HTTP call: a refusal is
   * the API's message. The link's base is PUBLIC_BASE_URL, or this host on PORT.
   */
  async inviteOwner(
    tenantId: string,
    email: string | undefined,
    role: string,
  ): Promise<TenantInvitationResponse & { link: string }> {
    const base = this.config.publicBaseUrl ?? `http://localhost:${this.config.port}`;
    const { invitation } = await asCliInput(() =>
      this.tenantInvitations.invite(tenantId, { email, role }, CLI_INVITER, base),
    );
    return { ...invitation, link: invitationLink(base, invitation.id) };
  }

  /** As POST /api/admin/tenants/{id}/suspend, for an operator without a session: no actor in the event. */
  async suspendTenant(id: string, reason: string | undefined): Promise<TenantResponse> {
    return asCliInput(
      async () => (await this.lifecycle.suspend(id, validateBody(SuspendTenantDto, { reason }), null)).tenant,
    );
  }

  /** As POST /api/admin/tenants/{id}/reactivate. */
  async reactivateTenant(id: string): Promise<TenantResponse> {
    return asCliInput(async () => (await this.lifecycle.reactivate(id, null)).tenant);
  }

  /** As DELETE /api/admin/tenants/{id}; the tenant as it is kept afterwards. */
  async deleteTenant(id: string): Promise<TenantResponse> {
    return asCliInput(async () => {
      await this.lifecycle.delete(id, null);
      return (await this.lifecycle.read(id)).tenant;
    });
  }

  /**
   * Moves a pending invitation's expiry just into the past, so that QA can see EXPIRED without
   * SQL. The status stays pending: as spec section 3 says, the next GET marks it expired.
   */
  async expireInvitation(id: string): Promise<InvitationRecord> {
    const invitation = await this.invitations.findById(id);
    if (!invitation) throw new CliInputError(`no invitation with id "${id}"`);
    if (invitation.status === 'accepted') throw new CliInputError(`invitation "${id}" is already accepted`);
    invitation.expiresAt = new Date(this.clock.now().getTime() - 1_000);
    await this.invitations.setExpiry(id, invitation.expiresAt);
    return toInvitationRecord(invitation);
  }
}
