/**
 * Where a join reads and writes a membership, one implementation per identity store (JoiningModule
 * chooses by what the store offers): the users row in the join's own transaction (LocalMembershipBackend),
 * or a grant that MembershipGrantsWorker writes to the user pool after it (PoolMembershipBackend).
 */

import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { UNAUTHORIZED } from '../common/messages';
import { IdentityStore, IdentityUser, ORG_USER_TYPE } from '../identity/identity-store';
import { MembershipGrantsRepository } from './membership-grants.repository';
import { MembershipGrantsWorker } from './membership-grants.worker';
import { MembershipChange } from './memberships.repository';

/** A person's membership as a join judges it. `pending`: a grant on its way to the user pool. */
export interface CurrentMembership {
  tenantId: string | null;
  role: string | null;
  pending: boolean;
  change: (role: string, tenantId: string, now: Date) => MembershipChange;
}

export abstract class MembershipBackend {
  /**
   * The person's membership now. An account the store does not have: 401 for the session's own join
   * when `mustExist`; null when not (a request approved after an operator deleted the account).
   */
  abstract current(userId: string, mustExist: boolean): Promise<CurrentMembership | null>;
  /** The membership of an account that the join makes: none. */
  abstract none(userId: string): Promise<CurrentMembership>;
  /** The organisation the person is in, as a join judges it; `user` as the store read it. */
  abstract organisationOf(user: Pick<IdentityUser, 'id' | 'tenantId'>): Promise<string | null>;
}

/** The local store: the users row, as read, is the membership; a person without one gets a row made by the join. */
export class LocalMembershipBackend extends MembershipBackend {
  constructor(private readonly identity: IdentityStore) {
    super();
  }

  async current(userId: string): Promise<CurrentMembership> {
    const stored = await this.identity.findById(userId);
    return {
      tenantId: stored?.tenantId ?? null,
      role: stored?.role ?? null,
      pending: false,
      change: () => ({ store: 'local', stored }),
    };
  }

  async none(): Promise<CurrentMembership> {
    return { tenantId: null, role: null, pending: false, change: () => ({ store: 'local', stored: null }) };
  }

  async organisationOf(user: Pick<IdentityUser, 'id' | 'tenantId'>): Promise<string | null> {
    return user.tenantId;
  }
}

/**
 * The user pool: a grant still on its way there counts first, read before the pool, so that a
 * grant written to the pool meanwhile is seen in one or the other. The person's membership version
 * is read before both: a grant written for them after it (by a parallel join or SCIM) makes this
 * join's write lose.
 */
export class PoolMembershipBackend extends MembershipBackend {
  constructor(
    private readonly identity: IdentityStore,
    private readonly grants: MembershipGrantsRepository,
    private readonly grantsWorker: MembershipGrantsWorker,
  ) {
    super();
  }

  async current(userId: string, mustExist: boolean): Promise<CurrentMembership | null> {
    const version = await this.grants.versionOf(userId);
    const pending = await this.grants.pendingFor(userId);
    const pooled = await this.identity.findById(userId);
    // The account is gone from the pool: nobody to make a member.
    if (!pooled) {
      if (mustExist) throw new ApiError(HttpStatus.UNAUTHORIZED, UNAUTHORIZED);
      return null;
    }
    const held: Pick<IdentityUser, 'tenantId' | 'role'> = pending ?? pooled;
    return {
      tenantId: held.tenantId,
      role: held.role,
      pending: pending !== null,
      change: (role, tenantId, now) => {
        const granted =
          held.tenantId === tenantId && held.role === role && (pending !== null || pooled.userType === ORG_USER_TYPE);
        return this.change(userId, version, granted ? null : { tenantId, role, now });
      },
    };
  }

  /** The version is read all the same, so that a grant written for the id meanwhile makes this join lose. */
  async none(userId: string): Promise<CurrentMembership> {
    const version = await this.grants.versionOf(userId);
    return {
      tenantId: null,
      role: null,
      pending: false,
      change: (role, tenantId, now) => this.change(userId, version, { tenantId, role, now }),
    };
  }

  async organisationOf(user: Pick<IdentityUser, 'id' | 'tenantId'>): Promise<string | null> {
    const pending = await this.grants.pendingFor(user.id);
    return pending?.tenantId ?? (await this.identity.findById(user.id))?.tenantId ?? null;
  }

  /**
   * The pool's side of a join: a grant of `granting` to queue (null when the pool, or a grant on its
   * way, has the membership already), with the compare-and-set on the membership version read first.
   */
  private change(
    userId: string,
    version: number,
    granting: { tenantId: string; role: string; now: Date } | null,
  ): MembershipChange {
    return {
      store: 'pool',
      grant: granting && this.grantsWorker.claimedGrant(userId, granting.tenantId, granting.role, granting.now),
      versionUnchanged: this.grants.versionUnchanged(userId, version),
    };
  }
}
