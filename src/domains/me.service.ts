import { HttpStatus, Injectable } from '@nestjs/common';
import { auditEvents } from '../audit/audit-event';
import { Caller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { UNAUTHORIZED } from '../common/messages';
import { AppConfig } from '../config/app-config';
import { JoinRequestEntity } from '../database/entities';
import { TenantsStore } from '../admin-tenants/tenants.store';
import { InvitationsStore } from '../invitations/invitations.store';
import { IdentityStore } from '../identity/identity-store';
import { DEFAULT_TENANT_NAME } from '../invitations/invitation';
import { JoiningService } from '../joining/joining.service';
import { MembershipRemovalsStore } from '../memberships/membership-removals.store';
import { domainRefusal } from './domain-errors';
import { emailDomain } from './domain-name';
import { DomainsStore, JoinableRow, pendingKey } from './domains.store';
import { DOMAIN_ERRORS } from './domains.messages';
import {
  DomainJoinedResponse,
  JoinableOrganisationsResponse,
  JoinRequestedResponse,
  MeResponse,
  MyInvitationsResponse,
} from './dto/domain.response';

const displayName = (name: string | null | undefined) => (name && name.trim() ? name : DEFAULT_TENANT_NAME);

/** The routes under /api/me: the signed-in person, their invitations, and the organisations they may join by their domain. */
@Injectable()
export class MeService {
  constructor(
    private readonly tenants: TenantsStore,
    private readonly invitationsStore: InvitationsStore,
    private readonly identity: IdentityStore,
    private readonly store: DomainsStore,
    private readonly joining: JoiningService,
    private readonly removals: MembershipRemovalsStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly config: AppConfig,
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
        ? { id: tenant.id, name: displayName(tenant.name), status: tenant.status, role: stored.role }
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
        organisationName: displayName(tenantName),
        role: invitation.role,
        expiresAt: invitation.expiresAt.toISOString(),
      });
    }
    return { invitations };
  }

  /** GET /api/me/joinable-organisations. */
  async joinable(caller: Caller | undefined): Promise<JoinableOrganisationsResponse> {
    const signedIn = this.signedIn(caller);
    const name = emailDomain(signedIn.email);
    if (!signedIn.email || !name || !(await this.emailVerified(signedIn))) return { organisations: [] };
    // A member, or one whose membership is on its way to the user pool, is offered none.
    const stored = await this.identity.findById(signedIn.id);
    if (await this.joining.organisationOf({ id: signedIn.id, tenantId: stored?.tenantId ?? null }))
      return { organisations: [] };
    const now = this.clock.now();
    const open = (await this.store.joinable(name)).filter((row) => isOpen(row, now));
    // Only what the join would take: not an organisation that removed this person.
    const removedFrom = await this.removals.removedFrom(
      signedIn.id,
      signedIn.email,
      open.map((row) => row.tenantId),
    );
    const organisations = [];
    for (const row of open) {
      if (removedFrom.has(row.tenantId)) continue;
      organisations.push({
        tenantId: row.tenantId,
        name: displayName(row.tenantName),
        domain: row.domain,
        joinMode: row.joinMode,
      });
    }
    return { organisations };
  }

  /**
   * POST /api/me/joinable-organisations/{tenantId}/join. The refusals run in order and change
   * nothing; `auto` makes the membership at once (202 with `pending` while the user pool has yet to
   * take it), `request` files one pending request (202), the same one when asked again.
   */
  async join(
    caller: Caller | undefined,
    tenantId: string,
  ): Promise<{ status: HttpStatus; body: DomainJoinedResponse | JoinRequestedResponse }> {
    const signedIn = this.signedIn(caller);
    if (!signedIn.email || !(await this.emailVerified(signedIn)))
      throw domainRefusal(HttpStatus.FORBIDDEN, DOMAIN_ERRORS.emailNotVerified);
    const stored = await this.identity.findById(signedIn.id);
    if (stored?.tenantId) refuseMembership(stored.tenantId, tenantId);
    const name = emailDomain(signedIn.email);
    const now = this.clock.now();
    const row = name ? (await this.store.joinable(name)).find((found) => found.tenantId === tenantId) : undefined;
    if (!row || !isOpen(row, now)) throw domainRefusal(HttpStatus.NOT_FOUND, DOMAIN_ERRORS.notJoinable);
    if ((await this.removals.removedFrom(signedIn.id, signedIn.email, [tenantId])).has(tenantId))
      throw domainRefusal(HttpStatus.FORBIDDEN, DOMAIN_ERRORS.removed);
    const member = { id: signedIn.id, email: signedIn.email };
    if (row.joinMode === 'auto') {
      const joined = await this.joining.joinWithoutInvitation(member, tenantId, 'member', () => ({
        required: [],
        events: [auditEvents.memberJoined(member, tenantId, 'member', 'domain', { domain: row.domain })],
      }));
      if (!joined.joined) {
        if (joined.emailInUse) throw domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.emailInUse);
        refuseMembership(joined.memberOf, tenantId);
      }
      const body: DomainJoinedResponse = { success: true, tenantId, role: 'member', userId: signedIn.id };
      return joined.inPool
        ? { status: HttpStatus.OK, body }
        : { status: HttpStatus.ACCEPTED, body: { ...body, pending: true } };
    }
    return { status: HttpStatus.ACCEPTED, body: await this.request(member, row) };
  }

  private async request(member: { id: string; email: string }, row: JoinableRow): Promise<JoinRequestedResponse> {
    const answer = (request: JoinRequestEntity): JoinRequestedResponse => ({
      success: true,
      request: { id: request.id, status: 'pending' },
    });
    const existing = await this.store.findPendingRequest(row.tenantId, member.id);
    if (existing) return answer(existing);
    const request: JoinRequestEntity = {
      id: this.ids.uuid(),
      tenantId: row.tenantId,
      userId: member.id,
      email: member.email.toLowerCase(),
      domain: row.domain,
      status: 'pending',
      pendingKey: pendingKey(row.tenantId, member.id),
      createdAt: this.clock.now(),
      decidedAt: null,
    };
    const event = auditEvents.aboutJoinRequest('join_request.created', request, { id: member.id, email: member.email });
    if (await this.store.insertRequest(request, [event])) return answer(request);
    // A parallel ask filed it first.
    return answer((await this.store.findPendingRequest(row.tenantId, member.id))!);
  }

  private signedIn(caller: Caller | undefined): Caller {
    if (!caller) throw new ApiError(HttpStatus.UNAUTHORIZED, UNAUTHORIZED);
    return caller;
  }

  /** The session's `email_verified` claim is present and true; in cognito mode, the user's attribute. */
  private async emailVerified(caller: Caller): Promise<boolean> {
    if (this.config.identityStore === 'cognito') return (await this.identity.emailVerified(caller.id)) === true;
    return caller.emailVerified === true;
  }
}

/** A domain that lets people join: verified, or failing within its grace. */
const isOpen = (row: JoinableRow, now: Date) =>
  row.status === 'verified' ||
  (row.status === 'failing' && (!row.graceEndsAt || row.graceEndsAt.getTime() > now.getTime()));

function refuseMembership(memberOf: string, tenantId: string): never {
  throw domainRefusal(
    HttpStatus.CONFLICT,
    memberOf === tenantId ? DOMAIN_ERRORS.alreadyMember : DOMAIN_ERRORS.memberOfAnotherOrganisation,
  );
}
