import { HoldingQuery, Insert, RequiredUpdate } from '../database/atomic-writer';
import { SessionAsk, SessionProbe } from '../database/session-probe';
import { TenantGate, TenantStatusReader } from '../database/tenant-status-reader';

/** A user as the service sees it, whichever backend holds it. */
export interface IdentityUser {
  id: string;
  email: string;
  platformRole: string | null;
  userType: string | null;
  tenantId: string | null;
  role: string | null;
}

export const SUPER_ADMIN_ROLE = 'super_admin';
/** The user type of an organisation's users (spec section 2, `custom:user_type`). */
export const ORG_USER_TYPE = 'org';
/** The tenant roles of a user record (spec section 2). */
export const TENANT_ROLES = ['owner', 'admin', 'member'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

/** How many members of a tenant hold each role. */
export type MemberCounts = Record<TenantRole, number>;
export const noMembers = (): MemberCounts => ({ owner: 0, admin: 0, member: 0 });
export const MAX_PAGE_SIZE = 60;

export interface UserPage {
  users: IdentityUser[];
  /** Opaque; absent on the last page. */
  nextToken?: string;
}

/** Where a page of a tenant's members starts: strictly after this member, in (email, id) order. */
export interface MemberKey {
  email: string;
  id: string;
}

export const INVALID_PAGE_TOKEN = 'Invalid pagination token';

/** The store refused an address (a new account's, or a change's): another account has it already, or the id. */
export class AccountExistsError extends Error {
  constructor() {
    super('An account with this address exists already');
    this.name = 'AccountExistsError';
  }
}

/** The store has no account with the id (one deleted from the user pool): a write for it can never succeed. */
export class AccountNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountNotFoundError';
  }
}

/** A page token that the store cannot read: bad input, not a fault. */
export class InvalidPageTokenError extends Error {
  constructor() {
    super(INVALID_PAGE_TOKEN);
    this.name = 'InvalidPageTokenError';
  }
}

/**
 * The account's writes that a transaction of the service's database carries (the local store's
 * users rows), so that they go in, or fail, with the caller's rows beside them.
 */
export interface AccountRows {
  /** A new account (the address stored lower-cased), in an organisation or in none. */
  created(id: string, email: string, tenantId: string | null, role: string | null, now: Date): Insert;
  /** The account `read` joins `tenantId` with `role`, only while its tenant and role are as read. */
  joined(read: Pick<IdentityUser, 'id' | 'tenantId' | 'role'>, tenantId: string, role: string): RequiredUpdate;
  /** The account's address, judged by the address's unique index in the writer's transaction. */
  addressChanged(userId: string, address: string): RequiredUpdate;
  /** The account leaves the tenant; it stays. */
  detached(userId: string, tenantId: string): RequiredUpdate;
}

/**
 * The memberships of a user pool, which no transaction of the service's database can carry: the
 * joins' grants, that MembershipGrantsWorker writes once their transaction has committed.
 */
export abstract class PoolMemberships {
  /**
   * Makes the user an org user of the tenant with the role; safe to repeat. AccountNotFoundError
   * when the pool no longer has the user.
   */
  abstract grantMembership(id: string, tenantId: string, role: string): Promise<void>;
}

/** What the org guard reads on every request (IdentityStore.findOrgCaller). */
export interface OrgCallerRead {
  user: IdentityUser | null;
  gate: TenantGate | null;
  session: SessionProbe;
}

/**
 * The port to the identity store. One implementation per backend (local table, Cognito);
 * nothing above this class knows which one it talks to.
 */
export abstract class IdentityStore {
  abstract findById(id: string): Promise<IdentityUser | null>;
  /**
   * The org guard's read on every request: the person, the gate of the tenant `tenantId` (its status
   * and single sign-on enforcement; null when absent) and the request's session. Here two reads side by
   * side; a store that sits beside the tenants table reads all in one round trip.
   */
  async findOrgCaller(ask: SessionAsk, tenantId: string, tenants: TenantStatusReader): Promise<OrgCallerRead> {
    const [user, { gate, session }] = await Promise.all([
      this.findById(ask.userId),
      tenants.gateAndSessionOf(tenantId, ask),
    ]);
    return { user, gate, session };
  }
  /**
   * Whether the user's e-mail is verified, now: the store's own mark where it keeps one (Cognito's
   * `email_verified` attribute, false for a user it does not have: cognito-local sets the claim true
   * whenever the attribute exists, even "false"); else the session's `claim`, present and true.
   */
  emailVerified(_id: string, claim: boolean | undefined): Promise<boolean> {
    return Promise.resolve(claim === true);
  }
  /**
   * Whether a session's `email_verified` claim leaves the address unverified: `false` does; so does
   * a missing claim where every session carries one (a user pool's id tokens), while a local
   * issuer may leave it out.
   */
  claimDeniesVerification(claim: boolean | undefined): boolean {
    return claim === false;
  }
  /**
   * Exactly the users whose e-mail is the same address under sameEmail (common/email-comparison),
   * in id order: the search and filter of spec 4.6 rule 3, so callers need not filter again.
   */
  abstract findByEmail(email: string): Promise<IdentityUser[]>;
  /** The member of a tenant whose e-mail is the same address under sameEmail, by an indexed look-up. */
  abstract findTenantMemberByEmail(tenantId: string, email: string): Promise<IdentityUser | null>;
  /**
   * A query that finds a row when the tenant may have a member with this e-mail (candidates:
   * findTenantMemberByEmail decides), so that a write in the service's database can check for one in
   * its own transaction; null for a store outside that database.
   */
  tenantMemberCandidates(_tenantId: string, _email: string): HoldingQuery | null {
    return null;
  }
  /** Super-admins a page at a time; `limit` is 1 to MAX_PAGE_SIZE; throws InvalidPageTokenError. */
  abstract listSuperAdmins(page: { limit: number; token?: string }): Promise<UserPage>;
  abstract grantSuperAdmin(id: string): Promise<void>;
  abstract deleteUser(id: string): Promise<void>;
  /** Clears the user's tenant id and tenant role; the account stays. */
  abstract removeFromTenant(id: string): Promise<void>;
  /**
   * Up to `take` users whose tenant id is `tenantId`, ordered by e-mail (stored lower-cased),
   * then id, in code-point order (compareKeys, common/paging), strictly after `after`: one page
   * of the tenant's members, whatever its size. An `after.id` of '' starts at `after.email` itself.
   */
  abstract listTenantMembers(tenantId: string, after: MemberKey | undefined, take: number): Promise<IdentityUser[]>;
  /** Sets the tenant role of a user who is in a tenant. */
  abstract setTenantRole(id: string, role: string): Promise<void>;
  /** The tenant's members by role, read from an index: members with a role outside TENANT_ROLES are not counted. */
  abstract countTenantMembers(tenantId: string): Promise<MemberCounts>;
  /**
   * Detaches up to `limit` members of the tenant, as removeFromTenant does (the accounts stay,
   * without tenant or role), in one bounded step; how many it detached: 0 once none is left.
   * A tenant's deletion calls it until then.
   */
  abstract detachTenantMembers(tenantId: string, limit: number): Promise<number>;
  /** Cheap round trip for readiness checks. */
  abstract ping(): Promise<void>;
  /** Whether readiness pings the store: false for one in the service's database, whose own check covers it. */
  readonly pingedForReadiness: boolean = false;
  /**
   * The account's writes for the service's own transactions; null for a store outside its database,
   * whose accounts are written before or after them (createAccount, changeEmail, removeFromTenant).
   */
  accountRows(): AccountRows | null {
    return null;
  }
  /** The memberships written after a join's transaction; null for a store whose accountRows the join writes. */
  poolMemberships(): PoolMemberships | null {
    return null;
  }
  /**
   * Ends the sessions that the store itself issued for the account (a user pool's refresh tokens):
   * "sign out everywhere" (docs/sessions.md). The local store issues none.
   */
  signOutEverywhere(_id: string): Promise<void> {
    return Promise.resolve();
  }
  /** Whether createAccount's account gets an id of the store's choosing rather than the one given. */
  namesNewAccounts(): Promise<boolean> {
    return Promise.resolve(false);
  }
  /**
   * Makes an account for the address, with no organisation and no message sent (SCIM's create,
   * docs/scim.md), and answers its id: `id`, or the one the store gives it (a user pool that signs
   * in by e-mail names its users itself). AccountExistsError when the address has one already. The
   * local store's accounts are rows that the caller's transaction inserts.
   */
  createAccount(_id: string, _email: string): Promise<string> {
    return Promise.reject(new Error('This identity store does not create accounts'));
  }
  /**
   * Changes the account's address (stored lower-cased), marked verified: SCIM's change of userName in
   * a store outside the service's database (the local store's rows change in the SCIM row's transaction).
   * AccountExistsError when another account has the address.
   */
  changeEmail(_id: string, _email: string): Promise<void> {
    return Promise.reject(new Error('This identity store does not change addresses'));
  }
}
