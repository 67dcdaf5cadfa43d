import { HttpStatus, Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { sameEmail } from '../common/email-comparison';
import { UNAUTHORIZED } from '../common/messages';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { IdentityStore, IdentityUser } from '../identity/identity-store';
import { INVITATION_ERRORS } from '../invitations/dto/invitation-error';
import { InvitationsStore } from '../invitations/invitations.store';
import { Metrics } from '../metrics/metrics';
import { GrantsStore, RoleDefinition } from '../permissions/grants.store';
import { JoinedResponse, JoinPendingResponse } from './dto/joined.response';
import { JOIN_ERRORS, joinRefusal } from './join-errors';
import { MembershipBackend } from './membership-backend';
import { MembershipGrantsWorker } from './membership-grants.worker';
import { Alongside, Join, MembershipsRepository } from './memberships.repository';

/** How often a join is judged again after its transaction lost to a concurrent change. */
export const JOIN_ATTEMPTS = 3;

/** How a join without an invitation goes (JoiningService.joinWithoutInvitation). */
export interface JoinOptions {
  /** False: an account gone from the pool is answered `accountDeleted` (a request approved after an operator deleted it). */
  mustExistInPool?: boolean;
  /** Keys of the custom roles to grant, as defined at the join. */
  customRoles?: string[];
  /** 'new': the address has no account yet, and the join makes it. */
  account?: 'existing' | 'new';
  /** A member of the tenant takes `role` (SCIM) rather than being answered `memberOf`. */
  setsRole?: boolean;
  /** One attempt: a lost race is answered `changed` (the caller's compare-and-sets decide). */
  once?: boolean;
}

/** What a join without an invitation did. */
export type JoinWithoutInvitationOutcome =
  | { joined: true; inPool: boolean }
  | { joined: false; memberOf: string; emailInUse?: boolean; accountDeleted?: boolean; changed?: boolean };

/**
 * POST /api/invitations/{token}/join: the signed-in invitee becomes a member of the invitation's
 * tenant. The rules run in order, each on what the store holds now; the write is one transaction
 * that also accepts the invitation, so that of parallel joins, accepts and revokes one wins. A
 * transaction that finds the invitation, the users row or the tenant changed since the rules read
 * them writes nothing, and the rules are judged again (the loser of a race gets its refusal).
 */
@Injectable()
export class JoiningService {
  constructor(
    private readonly invitations: InvitationsStore,
    private readonly identity: IdentityStore,
    private readonly memberships: MembershipsRepository,
    private readonly tenants: TenantStatusReader,
    private readonly backend: MembershipBackend,
    private readonly grantsWorker: MembershipGrantsWorker,
    private readonly customRoles: GrantsStore,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  async join(caller: Caller | undefined, token: string): Promise<JoinedResponse | JoinPendingResponse> {
    // Rule 1.
    if (!caller) throw new ApiError(HttpStatus.UNAUTHORIZED, UNAUTHORIZED);
    let lastFailure: unknown = new Error(`The join lost to concurrent changes ${JOIN_ATTEMPTS} times`);
    for (let attempt = 0; attempt < JOIN_ATTEMPTS; attempt++) {
      const { join, pending } = await this.decide(caller, token);
      try {
        const inPool = await this.commit(join, pending);
        if (inPool !== null) return this.joined(join, inPool);
      } catch (failure) {
        // A users row or grant that a parallel join made first fails the insert: judged again.
        lastFailure = failure;
      }
    }
    throw lastFailure;
  }

  /** Rules 2–5, in order; then what rule 6 writes. `pending`: the caller's membership is a grant still on its way to the pool. */
  private async decide(caller: Caller, token: string): Promise<{ join: Join; pending: boolean }> {
    const now = this.clock.now();
    // Rule 2: spec 4.2's refusals, except that an empty token is unknown too.
    const invitation = token.trim() === '' ? null : await this.invitations.findById(token);
    if (!invitation || invitation.status === 'revoked')
      throw joinRefusal(HttpStatus.NOT_FOUND, INVITATION_ERRORS.invalid);
    if (invitation.status === 'accepted') throw joinRefusal(HttpStatus.BAD_REQUEST, INVITATION_ERRORS.alreadyUsed);
    if (invitation.expiresAt.getTime() < now.getTime())
      throw joinRefusal(HttpStatus.BAD_REQUEST, INVITATION_ERRORS.expired);
    // The tenant's lifecycle, as the spec's accept answers it (docs/tenant-lifecycle.md).
    const tenantStatus = await this.tenants.statusOf(invitation.tenantId);
    if (tenantStatus === 'suspended') throw joinRefusal(HttpStatus.FORBIDDEN, INVITATION_ERRORS.suspended);
    if (tenantStatus === 'deleted') throw joinRefusal(HttpStatus.NOT_FOUND, INVITATION_ERRORS.invalid);
    // Rule 3: the answer never says which address was invited.
    const email = caller.email;
    if (!email || !sameEmail(email, invitation.email))
      throw joinRefusal(HttpStatus.FORBIDDEN, JOIN_ERRORS.emailMismatch);
    // Rule 4: a local issuer may leave the claim out; Cognito always sets it.
    if (this.identity.claimDeniesVerification(caller.emailVerified))
      throw joinRefusal(HttpStatus.FORBIDDEN, JOIN_ERRORS.emailNotVerified);
    // Rule 5.
    const current = (await this.backend.current(caller.id, true))!;
    if (current.tenantId !== null && current.tenantId !== invitation.tenantId) {
      throw joinRefusal(HttpStatus.CONFLICT, JOIN_ERRORS.memberOfAnotherOrganisation);
    }
    if ((await this.identity.findByEmail(email)).some((user) => user.id !== caller.id)) {
      throw joinRefusal(HttpStatus.CONFLICT, JOIN_ERRORS.emailInUse);
    }
    // Rule 6: a member of this tenant keeps the role they hold, and the custom roles.
    const alreadyMember = current.tenantId === invitation.tenantId;
    const role = alreadyMember && current.role ? current.role : invitation.role;
    const activatesTenant = role === 'owner' && tenantStatus === 'pending_owner';
    const join: Join = {
      tenantId: invitation.tenantId,
      invitation,
      invitee: { id: caller.id, email },
      role,
      customRoles: alreadyMember ? [] : await this.rolesInvitedTo(invitation.tenantId, invitation.id),
      activatesTenant,
      now,
      membership: current.change(role, invitation.tenantId, now),
    };
    return { join, pending: current.pending };
  }

  /**
   * A join without an invitation (a domain's, an approved request's, single sign-on's, SCIM's):
   * `member` becomes a user of `tenantId` with `role`, written as the invitation's join writes it
   * (the users row, or a grant for the user pool), in one transaction with `alongside`'s rows, and
   * the custom roles `options.customRoles` names as they are defined then (one deleted is not
   * granted). The caller's rules ran before; this judges the membership on what the store holds
   * now, and again after a lost race. `memberOf`: the tenant they were found in instead (nothing
   * written); `joined`: whether the pool has it yet. Options:
   * - `account: 'new'`: the address has no account yet: the local store's users row is made by the
   *   join; on the user pool the account is made once the rows are in (their unique indexes chose
   *   this request), before the grant is sent, and the rows are taken back when the pool refuses it.
   * - `setsRole`: a member of the tenant already takes `role` instead of being answered `memberOf`.
   * - `once`: a lost race answers `changed` instead of being judged again (the caller's own
   *   compare-and-sets would lose again).
   */
  async joinWithoutInvitation(
    member: { id: string; email: string },
    tenantId: string,
    role: string,
    alongside: (now: Date) => Alongside,
    options: JoinOptions = {},
  ): Promise<JoinWithoutInvitationOutcome> {
    const makesAccount = options.account === 'new';
    let lastFailure: unknown = new Error(`The join lost to concurrent changes ${JOIN_ATTEMPTS} times`);
    for (let attempt = 0; attempt < (options.once ? 1 : JOIN_ATTEMPTS); attempt++) {
      const now = this.clock.now();
      const current = makesAccount
        ? await this.backend.none(member.id)
        : await this.backend.current(member.id, options.mustExistInPool ?? true);
      if (!current) return { joined: false, memberOf: '', accountDeleted: true };
      if (current.tenantId !== null && !(options.setsRole && current.tenantId === tenantId))
        return { joined: false, memberOf: current.tenantId };
      if ((await this.identity.findByEmail(member.email)).some((user) => user.id !== member.id))
        return { joined: false, memberOf: '', emailInUse: true };
      const join: Join = {
        tenantId,
        invitation: null,
        invitee: member,
        role,
        customRoles: await this.definedRoles(tenantId, options.customRoles ?? []),
        activatesTenant: false,
        now,
        membership: current.change(role, tenantId, now),
        alongside: alongside(now),
      };
      try {
        const inPool = await this.commit(join, current.pending, makesAccount);
        if (inPool !== null) return { joined: true, inPool };
      } catch (failure) {
        if (options.once) throw failure;
        lastFailure = failure;
      }
    }
    if (options.once) return { joined: false, memberOf: '', changed: true };
    throw lastFailure;
  }

  /** The custom roles the invitation carries, as defined now (a role deleted since is no longer carried). */
  private async rolesInvitedTo(tenantId: string, invitationId: string): Promise<RoleDefinition[]> {
    return this.definedRoles(tenantId, (await this.customRoles.rolesOfInvitations([invitationId])).get(invitationId));
  }

  /** The roles of `keys` as defined now: one deleted is left out. */
  private async definedRoles(tenantId: string, keys: string[] = []): Promise<RoleDefinition[]> {
    if (!keys.length) return [];
    return (await this.customRoles.roles(tenantId)).filter((role) => keys.includes(role.key));
  }

  /**
   * The organisation the person is in, as a join judges it ("one organisation at most"): on the
   * user pool a grant still on its way there counts first; `user` as the store read it.
   */
  organisationOf(user: Pick<IdentityUser, 'id' | 'tenantId'>): Promise<string | null> {
    return this.backend.organisationOf(user);
  }

  /**
   * The join's transaction. On the user pool its grant goes there right after the commit, and
   * an account the join makes (`makesAccount`) before that. Null when nothing was written; else
   * whether the pool has the membership: not when it did not take the grant, or when an earlier
   * grant is still on its way.
   */
  private async commit(join: Join, alreadyPending: boolean, makesAccount = false): Promise<boolean | null> {
    const { membership } = join;
    const write = async () => {
      const inserted = await this.memberships.join(join);
      if (inserted && makesAccount && membership.store === 'pool') {
        try {
          await this.identity.createAccount(join.invitee.id, join.invitee.email);
        } catch (error) {
          await this.memberships.takeBack(join, inserted);
          throw error;
        }
      }
      return inserted !== null;
    };
    if (membership.store === 'pool' && membership.grant) return this.grantsWorker.joinAndWrite(membership.grant, write);
    return (await write()) ? !alreadyPending : null;
  }

  /** After the commit: a membership not yet in the pool is pending, answered 202. */
  private joined(join: Join, inPool: boolean): JoinedResponse | JoinPendingResponse {
    this.metrics.invitationAccepted();
    const answer: JoinedResponse = {
      success: true,
      tenantId: join.tenantId,
      role: join.role,
      userId: join.invitee.id,
    };
    return inPool ? answer : { ...answer, pending: true };
  }
}
