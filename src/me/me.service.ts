import { HttpStatus, Injectable } from '@nestjs/common';
import { TenantsStore } from '../admin-tenants/tenants.store';
import { Caller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { UNAUTHORIZED } from '../common/messages';
import { DomainJoin, DomainJoinsService, SignedInPerson } from '../domains/domain-joins.service';
import { JoinableOrganisationsResponse } from '../domains/dto/domain.response';
import { IdentityStore } from '../identity/identity-store';
import { tenantDisplayName } from '../invitations/invitation';
import { InvitationsStore } from '../invitations/invitations.store';
import { MeResponse, MyInvitationsResponse } from './dto/me.response';

/**
 * The routes under /api/me: the signed-in person, their invitations, and the organisations they may
 * join by their e-mail's domain (whose rules are the domains module's, DomainJoinsService).
 */
@Injectable()
export class MeService {
  constructor(
    private readonly tenants: TenantsStore,
    private readonly invitationsStore: InvitationsStore,
    private readonly identity: IdentityStore,
    private readonly joins: DomainJoinsService,
    private readonly clock: Clock,
  ) {}

  /** GET /api/me: from the store as it is now, not from the session's claims. */
  async me(caller: Caller | undefined): Promise<MeResponse> {
    const signedIn = this.signedIn(caller);
    const [stored, emailVerified] = await Promise.all([
      this.identity.findById(signedIn.id),
      this.emailVerified(signedIn),
    ]);
    if (!stored)
      return {
        user: { id: signedIn.id, email: signedIn.email, emailVerified, platformRole: null },
        organisation: null,
      };
    const tenant = stored.tenantId ? await this.tenants.find(stored.tenantId) : null;
    return {
      user: { id: stored.id, email: stored.email, emailVerified, platformRole: stored.platformRole },
      organisation: tenant
        ? { id: tenant.id, name: tenantDisplayName(tenant.name), status: tenant.status, role: stored.role }
        : null,
    };
  }

  /** GET /api/me/invitations: pending, unexpired, to the session's verified address. */
  async invitations(caller: Caller | undefined): Promise<MyInvitationsResponse> {
    const signedIn = this.signedIn(caller);
    if (!signedIn.email || !(await this.emailVerified(signedIn))) return { invitations: [] };
    const invitations = [];
    for (const { invitation, tenantName, tenantStatus } of await this.invitationsStore.pendingTo(
      signedIn.email,
      this.clock.now(),
    )) {
      if (tenantStatus === 'suspended' || tenantStatus === 'deleted') continue;
      invitations.push({
        token: invitation.id,
        tenantId: invitation.tenantId,
        organisationName: tenantDisplayName(tenantName),
        role: invitation.role,
        expiresAt: invitation.expiresAt.toISOString(),
      });
    }
    return { invitations };
  }

  /** GET /api/me/joinable-organisations. */
  joinable(caller: Caller | undefined): Promise<JoinableOrganisationsResponse> {
    return this.joins.joinable(this.person(caller));
  }

  /** POST /api/me/joinable-organisations/{tenantId}/join. */
  join(caller: Caller | undefined, tenantId: string, base: string): Promise<DomainJoin> {
    return this.joins.join(this.person(caller), tenantId, base);
  }

  /** The signed-in person, their address's verification read when a rule asks for it. */
  private person(caller: Caller | undefined): SignedInPerson {
    const signedIn = this.signedIn(caller);
    return { id: signedIn.id, email: signedIn.email, emailVerified: () => this.emailVerified(signedIn) };
  }

  private signedIn(caller: Caller | undefined): Caller {
    if (!caller) throw new ApiError(HttpStatus.UNAUTHORIZED, UNAUTHORIZED);
    return caller;
  }

  /** The session's `email_verified` claim is present and true; in cognito mode, the user's attribute. */
  private emailVerified(caller: Caller): Promise<boolean> {
    return this.identity.emailVerified(caller.id, caller.emailVerified);
  }
}
