import { CognitoIdentityProviderClient, DescribeUserPoolCommand } from '@aws-sdk/client-cognito-identity-provider';
import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { compareKeys } from '../../common/paging';
import { CognitoConfig } from '../../config/identity-config';
import {
  AccountExistsError,
  AccountNotFoundError,
  IdentityStore,
  IdentityUser,
  MAX_PAGE_SIZE,
  MemberCounts,
  MemberKey,
  ORG_USER_TYPE,
  noMembers,
  PoolMemberships,
  SUPER_ADMIN_ROLE,
  TenantRole,
  UserPage,
} from '../identity-store';
import { CognitoAccounts } from './cognito-accounts';
import { COGNITO_ATTRIBUTES, CognitoAttributes, fromListing } from './cognito-attributes';
import { CognitoGroups, tenantGroupName } from './cognito-groups';
import { CognitoLookups } from './cognito-lookups';
import { CognitoSuperAdminListing } from './cognito-super-admin-listing';

const memberKey = (user: { email: string; id: string }) => [user.email, user.id];

/**
 * Users in an Amazon Cognito user pool (IDENTITY_STORE=cognito). Mapping (docs/cognito.md): id is
 * the pool's Username, the rest are the `email` and `custom:*` attributes.
 *
 * Super-admins: `custom:platform_role` is the source of truth (it authorizes, and spec 4.6 rule 4
 * reads it); the COGNITO_SUPER_ADMIN_GROUP group is the index that lists them, since Cognito
 * cannot search custom attributes. A grant adds to the group first and sets the attribute second,
 * so that a half-done grant never leaves a super-admin out of the listing, and repeating the
 * grant completes it. The listing leaves out group members whose attribute says otherwise.
 *
 * Tenants: `custom:tenant_id` is the source of truth; the group `tenant_<id>` (tenantGroupName)
 * is the index that lists a tenant's members without scanning the pool. Every change the service
 * makes keeps it in step: a role change adds the user to the group before setting the role, a
 * removal clears the attributes before leaving the group, so that a half-done change never hides
 * a member, and the listing leaves out group members whose attribute names another tenant. Users
 * given a tenant outside the service join the group through the CLI's back-fill
 * (syncTenantGroups; README "Managing an organisation").
 *
 * SDK errors bubble up as they are, and the services turn them into the spec's 500 bodies, but for
 * those that mean something to them: a user the pool does not have (AccountNotFoundError from a
 * grant), an address another account has (AccountExistsError).
 *
 * Its parts each do one thing on the pool: CognitoLookups reads users, CognitoAttributes writes
 * their attributes, CognitoGroups their groups, CognitoAccounts makes and deletes accounts, and
 * CognitoSuperAdminListing pages the super-admin group. The orders above are kept here.
 */
export class CognitoIdentityStore extends IdentityStore implements PoolMemberships, OnApplicationShutdown {
  /** The pool is a dependency of its own, beside the database. */
  override readonly pingedForReadiness = true;
  private readonly userPoolId: string;
  private readonly superAdminGroup: string;
  private readonly lookups: CognitoLookups;
  private readonly attributes: CognitoAttributes;
  private readonly groups: CognitoGroups;
  private readonly accounts: CognitoAccounts;
  private readonly superAdmins: CognitoSuperAdminListing;

  constructor(
    private readonly client: CognitoIdentityProviderClient,
    cognito: CognitoConfig,
  ) {
    super();
    if (!cognito.userPoolId) throw new Error('COGNITO_USER_POOL_ID is required for the Cognito identity store');
    this.userPoolId = cognito.userPoolId;
    this.superAdminGroup = cognito.superAdminGroup;
    this.lookups = new CognitoLookups(client, this.userPoolId);
    this.attributes = new CognitoAttributes(client, this.userPoolId);
    this.groups = new CognitoGroups(client, this.userPoolId);
    this.accounts = new CognitoAccounts(client, this.userPoolId);
    this.superAdmins = new CognitoSuperAdminListing(
      this.groups,
      this.superAdminGroup,
      new Logger(CognitoIdentityStore.name),
    );
  }

  findById(id: string): Promise<IdentityUser | null> {
    return this.lookups.findById(id);
  }

  /** The user's `email_verified` attribute, whatever the session says. */
  override emailVerified(id: string): Promise<boolean> {
    return this.lookups.emailVerified(id);
  }

  /** The pool's id tokens always carry `email_verified`: one without it is not verified. */
  override claimDeniesVerification(claim: boolean | undefined): boolean {
    return claim !== true;
  }

  /** The joins' grants are written here, after their transaction (MembershipGrantsWorker). */
  override poolMemberships(): PoolMemberships {
    return this;
  }

  findByEmail(email: string): Promise<IdentityUser[]> {
    return this.lookups.findByEmail(email);
  }

  /** By e-mail search, then the tenant attribute: custom attributes are not searchable in Cognito. */
  async findTenantMemberByEmail(tenantId: string, email: string): Promise<IdentityUser | null> {
    return (await this.findByEmail(email)).find((user) => user.tenantId === tenantId) ?? null;
  }

  listSuperAdmins(page: { limit: number; token?: string }): Promise<UserPage> {
    return this.superAdmins.page(page);
  }

  async grantSuperAdmin(id: string): Promise<void> {
    await this.groups.add(id, this.superAdminGroup);
    await this.attributes.set(id, [{ Name: COGNITO_ATTRIBUTES.platformRole, Value: SUPER_ADMIN_ROLE }]);
  }

  deleteUser(id: string): Promise<void> {
    return this.accounts.delete(id);
  }

  override signOutEverywhere(id: string): Promise<void> {
    return this.accounts.signOutEverywhere(id);
  }

  /** Attributes first, then every tenant group the user is in (also ones a past change left behind). */
  async removeFromTenant(id: string): Promise<void> {
    await this.attributes.clearTenant(id);
    for (const group of await this.groups.tenantGroupsOf(id)) await this.groups.remove(id, group);
  }

  /**
   * The tenant's group, read whole and sorted: a tenant's members, not the pool. Cognito lists a
   * group in no useful order, so (email, id) order and the keyset are applied here.
   */
  async listTenantMembers(tenantId: string, after: MemberKey | undefined, take: number): Promise<IdentityUser[]> {
    const group = tenantGroupName(tenantId);
    if (!group) return [];
    let members: IdentityUser[];
    try {
      members = await this.groups.members(group);
    } catch (error) {
      // No group yet: the service has put nobody into this tenant.
      if ((error as Error).name === 'ResourceNotFoundException') return [];
      throw error;
    }
    return members
      .filter((user) => user.tenantId === tenantId && (!after || compareKeys(memberKey(user), memberKey(after)) > 0))
      .sort((a, b) => compareKeys(memberKey(a), memberKey(b)))
      .slice(0, take);
  }

  /** The group first, then the role: the user is listed before and after. */
  async setTenantRole(id: string, role: string): Promise<void> {
    const user = await this.findById(id);
    if (user?.tenantId) await this.joinTenantGroup(id, user.tenantId);
    await this.attributes.set(id, [{ Name: COGNITO_ATTRIBUTES.role, Value: role }]);
  }

  /**
   * Makes the user an org user of the tenant with the role, in the order of a role change: the
   * tenant's group first, then the attributes, so that a half-done grant never hides a member.
   * Safe to repeat: the join's grants are retried until the pool takes them.
   */
  async grantMembership(id: string, tenantId: string, role: string): Promise<void> {
    try {
      await this.joinTenantGroup(id, tenantId);
      await this.attributes.set(id, [
        { Name: COGNITO_ATTRIBUTES.userType, Value: ORG_USER_TYPE },
        { Name: COGNITO_ATTRIBUTES.tenantId, Value: tenantId },
        { Name: COGNITO_ATTRIBUTES.role, Value: role },
      ]);
    } catch (error) {
      if ((error as Error).name === 'UserNotFoundException') throw new AccountNotFoundError((error as Error).message);
      throw error;
    }
  }

  /** The tenant's group, read whole: Cognito counts nothing for us. */
  async countTenantMembers(tenantId: string): Promise<MemberCounts> {
    const counts = noMembers();
    for (const member of await this.listTenantMembers(tenantId, undefined, Number.MAX_SAFE_INTEGER)) {
      if (member.role && Object.hasOwn(counts, member.role)) counts[member.role as TenantRole]++;
    }
    return counts;
  }

  /**
   * The first pages of the tenant's group, each member detached by removeFromTenant (attributes
   * cleared, then out of the group), so that the next call starts again at the first page. A
   * group member whose attribute names another tenant only leaves this group. Users given the
   * tenant outside the service are found once they are in the group (cognito:sync-tenant-groups).
   */
  async detachTenantMembers(tenantId: string, limit: number): Promise<number> {
    const group = tenantGroupName(tenantId);
    if (!group) return 0;
    let detached = 0;
    while (detached < limit) {
      let page;
      try {
        page = await this.groups.page(group, Math.min(MAX_PAGE_SIZE, limit - detached));
      } catch (error) {
        // No group: the service has put nobody into this tenant.
        if ((error as Error).name === 'ResourceNotFoundException') return detached;
        throw error;
      }
      // Sliced: cognito-local answers a whole group whatever Limit asks.
      const members = (page.Users ?? []).map(fromListing).slice(0, limit - detached);
      if (!members.length) break;
      for (const member of members) {
        if (member.tenantId === tenantId) {
          await this.removeFromTenant(member.id);
          detached++;
        } else {
          await this.groups.remove(member.id, group);
        }
      }
    }
    return detached;
  }

  /** Adds the user to the tenant's group, creating the group on first use. */
  joinTenantGroup(id: string, tenantId: string): Promise<void> {
    return this.groups.joinTenantGroup(id, tenantId);
  }

  /**
   * The CLI's back-fill (`cognito:sync-tenant-groups`): one sweep of the pool that puts every user
   * with a tenant into that tenant's group and takes group members out whose attribute names
   * another tenant or none. Safe to repeat; counts what it changed.
   */
  async syncTenantGroups(): Promise<{ joined: number; left: number }> {
    const groups = new Map<string, Set<string>>();
    let left = 0;
    for (const group of await this.groups.tenantGroups()) {
      const kept = new Set<string>();
      for (const user of await this.groups.members(group)) {
        if (user.tenantId && tenantGroupName(user.tenantId) === group) {
          kept.add(user.id);
        } else {
          await this.groups.remove(user.id, group);
          left++;
        }
      }
      groups.set(group, kept);
    }
    let joined = 0;
    for (const user of await this.lookups.listUsers()) {
      const { tenantId } = user;
      const group = tenantId ? tenantGroupName(tenantId) : null;
      if (!tenantId || !group || groups.get(group)?.has(user.id)) continue;
      await this.joinTenantGroup(user.id, tenantId);
      joined++;
    }
    return { joined, left };
  }

  /** An account without an invitation message, the address verified, no tenant yet (CognitoAccounts.create). */
  override createAccount(id: string, email: string): Promise<string> {
    return this.accounts.create(id, email);
  }

  /** A pool that signs in by e-mail names its users itself. */
  override namesNewAccounts(): Promise<boolean> {
    return this.accounts.signsInByEmail();
  }

  /** A pool that signs in by e-mail refuses an address that is another user's (AliasExistsException). */
  override async changeEmail(id: string, email: string): Promise<void> {
    try {
      await this.attributes.set(id, [
        { Name: COGNITO_ATTRIBUTES.email, Value: email.toLowerCase() },
        { Name: 'email_verified', Value: 'true' },
      ]);
    } catch (error) {
      if ((error as Error).name === 'AliasExistsException') throw new AccountExistsError();
      throw error;
    }
  }

  async ping(): Promise<void> {
    await this.client.send(new DescribeUserPoolCommand({ UserPoolId: this.userPoolId }));
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }
}
