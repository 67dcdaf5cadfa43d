import { HttpStatus, Injectable } from '@nestjs/common';
import { auditEvents } from '../audit/audit-event';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { JoinRequestEntity } from '../database/entities';
import { IdentityStore } from '../identity/identity-store';
import { JoiningService } from '../joining/joining.service';
import { MembershipRemovalsStore } from '../memberships/membership-removals.store';
import { ssoStartUrl } from '../auth/org-admin.policy';
import { Refusal } from '../common/refusal';
import { domainRefusal } from './domain-errors';
import { emailDomain } from './domain-name';
import { DomainsStore, JoinableRow, pendingKey } from './domains.store';
import { DOMAIN_ERRORS } from './domains.messages';
import { DomainJoinedResponse, JoinableOrganisationsResponse, JoinRequestedResponse } from './dto/domain.response';
import { tenantDisplayName } from '../invitations/invitation';

/** Who asks to join: the session's person, their address's verification read when a rule asks for it. */
export interface SignedInPerson {
  id: string;
  email: string | null;
  emailVerified: () => Promise<boolean>;
}

/** A join by domain's outcome: a member (`pending` while the user pool has yet to take it), or a request filed. */
export type DomainJoin = { joined: DomainJoinedResponse } | { requested: JoinRequestedResponse };

/**
 * Joining an organisation by the e-mail's domain (docs/domains.md): which organisations a person
 * may join, and the join itself: at once through the one joining operation (`auto`), or a pending
 * request for the organisation's owners and admins to decide (`request`).
 */
@Injectable()
export class DomainJoinsService {
  constructor(
    private readonly identity: IdentityStore,
    private readonly store: DomainsStore,
    private readonly joining: JoiningService,
    private readonly removals: MembershipRemovalsStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** The active organisations the person may join by their address's domain (GET /api/me/joinable-organisations). */
  async joinable(signedIn: SignedInPerson): Promise<JoinableOrganisationsResponse> {
    const name = emailDomain(signedIn.email);
    if (!signedIn.email || !name || !(await signedIn.emailVerified())) return { organisations: [] };
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
        name: tenantDisplayName(row.tenantName),
        domain: row.domain,
        joinMode: row.joinMode,
      });
    }
    return { organisations };
  }

  /**
   * The join by the address's domain (POST /api/me/joinable-organisations/{tenantId}/join). The
   * refusals run in order and change nothing; `auto` makes the membership at once (`pending` while
   * the user pool has yet to take it), `request` files one pending request, the same one when asked again.
   */
  async join(signedIn: SignedInPerson, tenantId: string, base: string): Promise<DomainJoin> {
    if (!signedIn.email || !(await signedIn.emailVerified()))
      throw domainRefusal(HttpStatus.FORBIDDEN, DOMAIN_ERRORS.emailNotVerified);
    const stored = await this.identity.findById(signedIn.id);
    if (stored?.tenantId) refuseMembership(stored.tenantId, tenantId);
    const name = emailDomain(signedIn.email);
    const now = this.clock.now();
    const row = name ? (await this.store.joinable(name)).find((found) => found.tenantId === tenantId) : undefined;
    if (!row || !isOpen(row, now)) throw domainRefusal(HttpStatus.NOT_FOUND, DOMAIN_ERRORS.notJoinable);
    if ((await this.removals.removedFrom(signedIn.id, signedIn.email, [tenantId])).has(tenantId))
      throw domainRefusal(HttpStatus.FORBIDDEN, DOMAIN_ERRORS.removed);
    // An organisation that requires single sign-on takes its people in by it alone.
    if (row.ssoEnforced)
      throw new Refusal(HttpStatus.FORBIDDEN, DOMAIN_ERRORS.ssoRequired, {
        startUrl: ssoStartUrl(base, signedIn.email),
      });
    const member = { id: signedIn.id, email: signedIn.email };
    if (row.joinMode === 'auto') {
      const defaultRoles = (await this.store.defaultRolesOf([row.domainId])).get(row.domainId);
      const joined = await this.joining.joinWithoutInvitation(
        member,
        tenantId,
        'member',
        () => ({
          required: [],
          events: [auditEvents.memberJoined(member, tenantId, 'member', 'domain', { domain: row.domain })],
        }),
        { customRoles: defaultRoles },
      );
      if (!joined.joined) {
        if (joined.emailInUse) throw domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.emailInUse);
        refuseMembership(joined.memberOf, tenantId);
      }
      const body: DomainJoinedResponse = { success: true, tenantId, role: 'member', userId: signedIn.id };
      return joined.inPool ? { joined: body } : { joined: { ...body, pending: true } };
    }
    return { requested: await this.request(member, row) };
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
