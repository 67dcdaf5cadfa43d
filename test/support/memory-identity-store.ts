import {
  IdentityStore,
  IdentityUser,
  InvalidPageTokenError,
  MemberKey,
  SUPER_ADMIN_ROLE,
  UserPage,
} from '../../src/identity/identity-store';
import { compareKeys } from '../../src/common/paging';
import { sameEmail } from '../../src/common/email-comparison';

const PAGE_TOKEN_PREFIX = 'after:';

/**
 * The identity store in memory, for unit tests: the whole port, with the calls that change
 * users recorded, and `failure` to make every call fail.
 */
export class MemoryIdentityStore extends IdentityStore {
  readonly users = new Map<string, IdentityUser>();
  /** Ids in the order of the calls. */
  readonly lookups: string[] = [];
  readonly granted: string[] = [];
  readonly deleted: string[] = [];
  readonly removed: string[] = [];
  /** [id, role] of each role change. */
  readonly roleChanges: [string, string][] = [];
  /** When set, listSuperAdmins answers this page whatever is stored. */
  page?: UserPage;
  lastPageRequest?: { limit: number; token?: string };
  /** When set, every call rejects with it. */
  failure?: Error;

  add(user: Partial<IdentityUser> & { id: string }): IdentityUser {
    const full: IdentityUser = {
      email: `${user.id}@example.com`,
      platformRole: null,
      userType: null,
      tenantId: null,
      role: null,
      ...user,
    };
    this.users.set(full.id, full);
    return full;
  }

  async findById(id: string): Promise<IdentityUser | null> {
    this.lookups.push(id);
    this.failIfAsked();
    return this.users.get(id) ?? null;
  }

  async findByEmail(email: string): Promise<IdentityUser[]> {
    this.failIfAsked();
    return [...this.users.values()].filter((user) => sameEmail(user.email, email));
  }

  async findTenantMemberByEmail(tenantId: string, email: string): Promise<IdentityUser | null> {
    this.failIfAsked();
    return [...this.users.values()].find((user) => user.tenantId === tenantId && sameEmail(user.email, email)) ?? null;
  }

  /** Pages by id; the token names the last id of the page before. */
  async listSuperAdmins(request: { limit: number; token?: string }): Promise<UserPage> {
    this.lastPageRequest = request;
    this.failIfAsked();
    if (this.page) return this.page;
    if (request.token !== undefined && !request.token.startsWith(PAGE_TOKEN_PREFIX)) throw new InvalidPageTokenError();
    const after = request.token?.slice(PAGE_TOKEN_PREFIX.length) ?? '';
    const superAdmins = [...this.users.values()]
      .filter((user) => user.platformRole === SUPER_ADMIN_ROLE && user.id > after)
      .sort((a, b) => a.id.localeCompare(b.id));
    const users = superAdmins.slice(0, request.limit);
    if (superAdmins.length <= request.limit) return { users };
    return { users, nextToken: `${PAGE_TOKEN_PREFIX}${users[users.length - 1].id}` };
  }

  async grantSuperAdmin(id: string): Promise<void> {
    this.failIfAsked();
    this.granted.push(id);
    this.update(id, { platformRole: SUPER_ADMIN_ROLE });
  }

  async deleteUser(id: string): Promise<void> {
    this.failIfAsked();
    this.deleted.push(id);
    this.users.delete(id);
  }

  async removeFromTenant(id: string): Promise<void> {
    this.failIfAsked();
    this.removed.push(id);
    this.update(id, { tenantId: null, role: null });
  }

  async listTenantMembers(tenantId: string, after: MemberKey | undefined, take: number): Promise<IdentityUser[]> {
    this.failIfAsked();
    const key = (user: { email: string; id: string }) => [user.email, user.id];
    return [...this.users.values()]
      .filter((user) => user.tenantId === tenantId && (!after || compareKeys(key(user), key(after)) > 0))
      .sort((a, b) => compareKeys(key(a), key(b)))
      .slice(0, take);
  }

  async setTenantRole(id: string, role: string): Promise<void> {
    this.failIfAsked();
    this.roleChanges.push([id, role]);
    this.update(id, { role });
  }

  async ping(): Promise<void> {
    this.failIfAsked();
  }

  private update(id: string, changes: Partial<IdentityUser>): void {
    const user = this.users.get(id);
    if (user) Object.assign(user, changes);
  }

  private failIfAsked(): void {
    if (this.failure) throw this.failure;
  }
}
