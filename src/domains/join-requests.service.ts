import { HttpStatus, Injectable } from '@nestjs/common';
import { auditActor, auditEvents } from '../audit/audit-event';
import { OrgCaller } from '../auth/caller';
import { Clock } from '../common/clock';
import { JoinRequestEntity } from '../database/entities';
import { JoiningService, JoinWithoutInvitationOutcome } from '../joining/joining.service';
import { MembershipRemovalsStore } from '../memberships/membership-removals.store';
import { domainRefusal } from './domain-errors';
import { DomainsStore } from './domains.store';
import { DOMAIN_ERRORS } from './domains.messages';
import { DecidedJoinRequestResponse, JoinRequestResponse, ListJoinRequestsResponse } from './dto/domain.response';

/**
 * Join requests (docs/domains.md, "Join requests"): an organisation's owners and admins list the
 * requests that people filed by its domain (DomainJoinsService files them), and approve one (the
 * person joins through the one joining operation, with the domain's default roles) or reject it.
 */
@Injectable()
export class JoinRequestsService {
  constructor(
    private readonly store: DomainsStore,
    private readonly joining: JoiningService,
    private readonly removals: MembershipRemovalsStore,
    private readonly clock: Clock,
  ) {}

  /** GET /api/org/join-requests. */
  async listRequests(caller: OrgCaller, status: unknown): Promise<ListJoinRequestsResponse> {
    const wanted = status === undefined ? 'pending' : status;
    if (typeof wanted !== 'string' || !['pending', 'approved', 'rejected'].includes(wanted))
      throw domainRefusal(HttpStatus.BAD_REQUEST, DOMAIN_ERRORS.invalidStatus);
    return { requests: (await this.store.listRequests(caller.tenantId, wanted)).map(toRequestResponse) };
  }

  /** POST /api/org/join-requests/{id}/approve: the person becomes a member, as a domain's auto join makes them. */
  async approve(caller: OrgCaller, id: string): Promise<DecidedJoinRequestResponse> {
    const request = await this.openRequest(caller, id);
    const actor = auditActor(caller);
    // An operator deleted the account after the person asked (DELETE /api/admin/users/{id}): refused in
    // both stores, as the pool refuses an account gone from it (the local store would make a new users row).
    let joined: JoinWithoutInvitationOutcome = {
      joined: false,
      memberOf: '',
      accountDeleted: true,
    };
    try {
      if (!(await this.removals.accountDeletedSince(request.tenantId, request.userId, request.createdAt)))
        joined = await this.joining.joinWithoutInvitation(
          { id: request.userId, email: request.email },
          request.tenantId,
          'member',
          (now) => ({
            required: [this.store.decideStatement(request.id, 'approved', now)],
            events: [
              auditEvents.aboutJoinRequest('join_request.approved', request, actor),
              auditEvents.memberJoined(
                { id: request.userId, email: request.email },
                request.tenantId,
                'member',
                'domain',
                {
                  domain: request.domain,
                  actor,
                },
              ),
            ],
          }),
          { mustExistInPool: false, customRoles: await this.defaultRolesOfRequest(request) },
        );
    } catch (error) {
      await this.openRequest(caller, id);
      throw error;
    }
    if (!joined.joined) {
      // Joined elsewhere meanwhile (or here), or the account was deleted: the request is closed.
      const code = joined.accountDeleted
        ? DOMAIN_ERRORS.accountDeleted
        : joined.emailInUse
          ? DOMAIN_ERRORS.emailInUse
          : joined.memberOf === request.tenantId
            ? DOMAIN_ERRORS.alreadyMember
            : DOMAIN_ERRORS.memberOfAnotherOrganisation;
      await this.store.decide(request.id, 'rejected', this.clock.now(), [
        auditEvents.aboutJoinRequest('join_request.rejected', request, actor, { reason: code.toLowerCase() }),
      ]);
      throw domainRefusal(HttpStatus.CONFLICT, code);
    }
    return { success: true, request: toRequestResponse((await this.store.findRequest(caller.tenantId, id))!) };
  }

  /** POST /api/org/join-requests/{id}/reject. */
  async reject(caller: OrgCaller, id: string): Promise<DecidedJoinRequestResponse> {
    const request = await this.openRequest(caller, id);
    const event = auditEvents.aboutJoinRequest('join_request.rejected', request, auditActor(caller));
    if (!(await this.store.decide(request.id, 'rejected', this.clock.now(), [event])))
      throw domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.requestClosed);
    return { success: true, request: toRequestResponse((await this.store.findRequest(caller.tenantId, id))!) };
  }

  /** The default roles of the claim a request was filed by, as they are now (none once the claim is gone). */
  private async defaultRolesOfRequest(request: JoinRequestEntity): Promise<string[]> {
    const claim = await this.store.findOwn(request.tenantId, request.domain);
    return claim ? ((await this.store.defaultRolesOf([claim.id])).get(claim.id) ?? []) : [];
  }

  private async openRequest(caller: OrgCaller, id: string): Promise<JoinRequestEntity> {
    const request = await this.store.findRequest(caller.tenantId, id);
    if (!request) throw domainRefusal(HttpStatus.NOT_FOUND, DOMAIN_ERRORS.requestNotFound);
    if (request.status !== 'pending') throw domainRefusal(HttpStatus.CONFLICT, DOMAIN_ERRORS.requestClosed);
    return request;
  }
}

export const toRequestResponse = (request: JoinRequestEntity): JoinRequestResponse => ({
  id: request.id,
  userId: request.userId,
  email: request.email,
  domain: request.domain,
  status: request.status,
  createdAt: request.createdAt.toISOString(),
});
