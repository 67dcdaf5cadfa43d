import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserAttributesCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUpdateUserAttributesCommand,
  AliasExistsException,
  AttributeType,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  DescribeUserPoolCommand,
  GroupType,
  ListUsersCommand,
  ListUsersInGroupCommand,
  paginateAdminListGroupsForUser,
  paginateListGroups,
  paginateListUsersInGroup,
  UsernameExistsException,
  UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { comparableEmail, sameEmail } from '../../common/email-comparison';
import { compareKeys } from '../../common/paging';
import { CognitoConfig } from '../../config/identity-config';
import {
  AccountExistsError,
  IdentityStore,
  IdentityUser,
  InvalidPageTokenError,
  MAX_PAGE_SIZE,
  MemberCounts,
  MemberKey,
  ORG_USER_TYPE,
  noMembers,
  SUPER_ADMIN_ROLE,
  TenantRole,
  UserPage,
} from '../identity-store';

/** The pool attributes of the user record (docs/cognito.md, "The user pool"). */
export const COGNITO_ATTRIBUTES = {
  email: 'email',
  platformRole: 'custom:platform_role',
  userType: 'custom:user_type',
  tenantId: 'custom:tenant_id',
  role: 'custom:role',
} as const;

/** Cognito's own limits: Username is 1–128 of these characters; a ListUsers filter is at most 256 characters. */
const COGNITO_USERNAME = /^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u;
const MAX_FILTER_LENGTH = 256;

/** The SDK client: region, optional endpoint (an emulator), and the SDK's standard retry strategy. */
export function createCognitoClient(cognito: CognitoConfig): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    region: cognito.region,
    ...(cognito.endpoint && { endpoint: cognito.endpoint }),
    // Throttling and transient errors are retried with backoff; anything else bubbles up.
    retryMode: 'standard',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000 },
  });
}

function attributeValue(attributes: AttributeType[] | undefined, name: string): string | null {
  const value = attributes?.find((attribute) => attribute.Name === name)?.Value;
  return value ? value : null;
}

export function toIdentityUser(username: string, attributes: AttributeType[] | undefined): IdentityUser {
  return {
    id: username,
    // Stored lower-cased (docs/cognito.md); lower-cased on read as well, so that a mixed-case
    // address already in the pool still compares equal to the one the API was given.
    email: (attributeValue(attributes, COGNITO_ATTRIBUTES.email) ?? '').toLowerCase(),
    platformRole: attributeValue(attributes, COGNITO_ATTRIBUTES.platformRole),
    userType: attributeValue(attributes, COGNITO_ATTRIBUTES.userType),
    tenantId: attributeValue(attributes, COGNITO_ATTRIBUTES.tenantId),
    role: attributeValue(attributes, COGNITO_ATTRIBUTES.role),
  };
}

/**
 * The pool group that indexes a tenant's members (Cognito cannot search custom attributes):
 * `tenant_` and the tenant id; null when the id cannot make a group name (1–128 characters).
 */
export const TENANT_GROUP_PREFIX = 'tenant_';
export function tenantGroupName(tenantId: string): string | null {
  const name = `${TENANT_GROUP_PREFIX}${tenantId}`;
  return COGNITO_USERNAME.test(name) ? name : null;
}

const memberKey = (user: { email: string; id: string }) => [user.email, user.id];

const byId = (a: IdentityUser, b: IdentityUser) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const fromListing = (user: UserType): IdentityUser => toIdentityUser(user.Username ?? '', user.Attributes);

const unboundedEqualsFilter = (attribute: string, value: string) =>
  `${attribute} = "${value.replace(/["\\]/g, '\\$&')}"`;
const fitsInFilter = (attribute: string, value: string) =>
  unboundedEqualsFilter(attribute, value).length <= MAX_FILTER_LENGTH;

/** A ListUsers filter for an exact attribute value: quotes and backslashes escaped. */
export function equalsFilter(attribute: string, value: string): string {
  const filter = unboundedEqualsFilter(attribute, value);
  if (filter.length > MAX_FILTER_LENGTH) {
    throw new Error(
      `The e-mail address is too long to search the user pool (a filter is at most ${MAX_FILTER_LENGTH} characters)`,
    );
  }
  return filter;
}

/**
 * The API's page token for the super-admin listing: base64url of `{"n": <Cognito NextToken>, "s": <skip>}`.
 * `n` is the Cognito page to read; `s` is how many users of that page were already returned, for
 * a backend that answers with more users than `Limit` asked for (cognito-local ignores `Limit`).
 * Against Cognito itself `s` is never set.
 */
interface PageCursor {
  n?: string;
  s?: number;
}

const MAX_TOKEN_LENGTH = 4096;

export function encodePageToken(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

export function decodePageToken(token: string): PageCursor {
  if (token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) throw new InvalidPageTokenError();
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidPageTokenError();
  }
  if (typeof cursor !== 'object' || cursor === null || Array.isArray(cursor)) throw new InvalidPageTokenError();
  const { n, s, ...rest } = cursor as Record<string, unknown>;
  const validNext = n === undefined || (typeof n === 'string' && /^\S+$/.test(n));
  const validSkip = s === undefined || (Number.isSafeInteger(s) && (s as number) > 0);
  if (Object.keys(rest).length || !validNext || !validSkip || (n === undefined && s === undefined)) {
    throw new InvalidPageTokenError();
  }
  const decoded: PageCursor = {
    ...(n !== undefined && { n: n as string }),
    ...(s !== undefined && { s: s as number }),
  };
  // One spelling per cursor, so that a token is either ours, unchanged, or refused.
  if (encodePageToken(decoded) !== token) throw new InvalidPageTokenError();
  return decoded;
}

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
 * SDK errors bubble up as they are; the services turn them into the spec's 500 bodies.
 */
export class CognitoIdentityStore extends IdentityStore implements OnApplicationShutdown {
  private readonly logger = new Logger(CognitoIdentityStore.name);
  private readonly userPoolId: string;
  private readonly superAdminGroup: string;
  private poolSignsInByEmail?: Promise<boolean>;

  constructor(
    private readonly client: CognitoIdentityProviderClient,
    cognito: CognitoConfig,
  ) {
    super();
    if (!cognito.userPoolId) throw new Error('COGNITO_USER_POOL_ID is required for the Cognito identity store');
    this.userPoolId = cognito.userPoolId;
    this.superAdminGroup = cognito.superAdminGroup;
  }

  async findById(id: string): Promise<IdentityUser | null> {
    // A name that Cognito would refuse as a Username cannot belong to a user: not found, not a fault.
    if (!COGNITO_USERNAME.test(id)) return null;
    try {
      const user = await this.client.send(new AdminGetUserCommand({ UserPoolId: this.userPoolId, Username: id }));
      return toIdentityUser(user.Username ?? id, user.UserAttributes);
    } catch (error) {
      if ((error as Error).name === 'UserNotFoundException') return null;
      throw error;
    }
  }

  override async emailVerified(id: string): Promise<boolean | null> {
    if (!COGNITO_USERNAME.test(id)) return null;
    try {
      const user = await this.client.send(new AdminGetUserCommand({ UserPoolId: this.userPoolId, Username: id }));
      return attributeValue(user.UserAttributes, 'email_verified') === 'true';
    } catch (error) {
      if ((error as Error).name === 'UserNotFoundException') return null;
      throw error;
    }
  }

  /**
   * ListUsers with exact `email = "…"` filters, then sameEmail on what they find. Cognito's
   * filter is exact (and case-sensitive), so the address is searched in the spellings a stored,
   * lower-cased address can have: its comparison form (comparableEmail: every look-alike of an
   * address stored in that form, such as `kate@` for `ＫATE@` or `Kate@`), lower-cased, and as
   * given. A stored address that is not in its own comparison form (`straße@`, `ｋate@`) is
   * found only from its own spelling; finding it from any other would take a scan of the pool
   * per request (see the README).
   */
  async findByEmail(email: string): Promise<IdentityUser[]> {
    // Folding can make an address many times longer (`ﷺ` is 18 letters): a comparison form too
    // long for a filter is not searched, while the address as given must fit (equalsFilter).
    const folded = comparableEmail(email);
    const spellings = new Set([email.toLowerCase(), email]);
    if (fitsInFilter(COGNITO_ATTRIBUTES.email, folded)) spellings.add(folded);
    const found = new Map<string, IdentityUser>();
    for (const spelling of spellings) {
      for (const user of await this.listUsers(equalsFilter(COGNITO_ATTRIBUTES.email, spelling))) {
        if (sameEmail(user.email, email)) found.set(user.id, user);
      }
    }
    return [...found.values()].sort(byId);
  }

  /** By e-mail search, then the tenant attribute: custom attributes are not searchable in Cognito. */
  async findTenantMemberByEmail(tenantId: string, email: string): Promise<IdentityUser | null> {
    return (await this.findByEmail(email)).find((user) => user.tenantId === tenantId) ?? null;
  }

  /** ListUsersInGroup on the super-admin group, with the API's limit and token mapped onto Cognito's. */
  async listSuperAdmins({ limit, token }: { limit: number; token?: string }): Promise<UserPage> {
    const pageSize = Math.min(Math.max(Math.trunc(limit) || 1, 1), MAX_PAGE_SIZE);
    const cursor = token === undefined ? {} : decodePageToken(token);
    const skip = cursor.s ?? 0;
    let page;
    try {
      page = await this.client.send(
        new ListUsersInGroupCommand({
          UserPoolId: this.userPoolId,
          GroupName: this.superAdminGroup,
          Limit: pageSize,
          ...(cursor.n && { NextToken: cursor.n }),
        }),
      );
    } catch (error) {
      // Cognito refuses a NextToken it did not issue as a bad parameter: the caller's token is bad.
      if (cursor.n && (error as Error).name === 'InvalidParameterException') throw new InvalidPageTokenError();
      throw error;
    }
    const members = page.Users ?? [];
    const taken = members.slice(skip, skip + pageSize);
    let next: PageCursor | undefined;
    if (skip + pageSize < members.length) next = { ...(cursor.n && { n: cursor.n }), s: skip + pageSize };
    else if (page.NextToken) next = { n: page.NextToken };

    const users = taken.map(fromListing).filter((user) => {
      if (user.platformRole === SUPER_ADMIN_ROLE) return true;
      this.logger.warn(
        `User ${user.id} is in group ${this.superAdminGroup} without ${COGNITO_ATTRIBUTES.platformRole}=${SUPER_ADMIN_ROLE}: not listed`,
      );
      return false;
    });
    return next ? { users, nextToken: encodePageToken(next) } : { users };
  }

  async grantSuperAdmin(id: string): Promise<void> {
    await this.client.send(
      new AdminAddUserToGroupCommand({ UserPoolId: this.userPoolId, Username: id, GroupName: this.superAdminGroup }),
    );
    await this.client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: this.userPoolId,
        Username: id,
        UserAttributes: [{ Name: COGNITO_ATTRIBUTES.platformRole, Value: SUPER_ADMIN_ROLE }],
      }),
    );
  }

  async deleteUser(id: string): Promise<void> {
    await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.userPoolId, Username: id }));
  }

  /** Attributes first, then every tenant group the user is in (also ones a past change left behind). */
  async removeFromTenant(id: string): Promise<void> {
    await this.client.send(
      new AdminDeleteUserAttributesCommand({
        UserPoolId: this.userPoolId,
        Username: id,
        UserAttributeNames: [COGNITO_ATTRIBUTES.tenantId, COGNITO_ATTRIBUTES.role],
      }),
    );
    for (const group of await this.tenantGroupsOf(id)) {
      await this.client.send(
        new AdminRemoveUserFromGroupCommand({ UserPoolId: this.userPoolId, Username: id, GroupName: group }),
      );
    }
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
      members = await this.listGroup(group);
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
    await this.client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: this.userPoolId,
        Username: id,
        UserAttributes: [{ Name: COGNITO_ATTRIBUTES.role, Value: role }],
      }),
    );
  }

  /**
   * Makes the user an org user of the tenant with the role, in the order of a role change: the
   * tenant's group first, then the attributes, so that a half-done grant never hides a member.
   * Safe to repeat: the join's grants are retried until the pool takes them.
   */
  async grantMembership(id: string, tenantId: string, role: string): Promise<void> {
    await this.joinTenantGroup(id, tenantId);
    await this.client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: this.userPoolId,
        Username: id,
        UserAttributes: [
          { Name: COGNITO_ATTRIBUTES.userType, Value: ORG_USER_TYPE },
          { Name: COGNITO_ATTRIBUTES.tenantId, Value: tenantId },
          { Name: COGNITO_ATTRIBUTES.role, Value: role },
        ],
      }),
    );
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
        page = await this.client.send(
          new ListUsersInGroupCommand({
            UserPoolId: this.userPoolId,
            GroupName: group,
            Limit: Math.min(MAX_PAGE_SIZE, limit - detached),
          }),
        );
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
          await this.client.send(
            new AdminRemoveUserFromGroupCommand({ UserPoolId: this.userPoolId, Username: member.id, GroupName: group }),
          );
        }
      }
    }
    return detached;
  }

  /** Adds the user to the tenant's group, creating the group on first use. */
  async joinTenantGroup(id: string, tenantId: string): Promise<void> {
    const group = tenantGroupName(tenantId);
    if (!group) throw new Error(`Tenant id ${JSON.stringify(tenantId)} cannot name a Cognito group`);
    const join = () =>
      this.client.send(new AdminAddUserToGroupCommand({ UserPoolId: this.userPoolId, Username: id, GroupName: group }));
    try {
      await join();
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
      await this.createGroup(group);
      await join();
    }
  }

  /**
   * The CLI's back-fill (`cognito:sync-tenant-groups`): one sweep of the pool that puts every user
   * with a tenant into that tenant's group and takes group members out whose attribute names
   * another tenant or none. Safe to repeat; counts what it changed.
   */
  async syncTenantGroups(): Promise<{ joined: number; left: number }> {
    const groups = new Map<string, Set<string>>();
    let left = 0;
    for (const group of await this.listTenantGroups()) {
      const kept = new Set<string>();
      for (const user of await this.listGroup(group)) {
        if (user.tenantId && tenantGroupName(user.tenantId) === group) {
          kept.add(user.id);
        } else {
          await this.client.send(
            new AdminRemoveUserFromGroupCommand({ UserPoolId: this.userPoolId, Username: user.id, GroupName: group }),
          );
          left++;
        }
      }
      groups.set(group, kept);
    }
    let joined = 0;
    for (const user of await this.listUsers()) {
      const { tenantId } = user;
      const group = tenantId ? tenantGroupName(tenantId) : null;
      if (!tenantId || !group || groups.get(group)?.has(user.id)) continue;
      await this.joinTenantGroup(user.id, tenantId);
      joined++;
    }
    return { joined, left };
  }

  /** AdminCreateUser without an invitation message (MessageAction SUPPRESS): the address verified, no tenant yet. */
  /**
   * A pool that signs in by e-mail (`UsernameAttributes` with `email`, Amplify's default) takes the
   * address as the Username and names the user itself (its `sub`): that name is the account's id.
   * A pool with separate usernames takes `id`.
   */
  override async createAccount(id: string, email: string): Promise<string> {
    const address = email.toLowerCase();
    try {
      const created = await this.client.send(
        new AdminCreateUserCommand({
          UserPoolId: this.userPoolId,
          Username: (await this.signsInByEmail()) ? address : id,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: COGNITO_ATTRIBUTES.email, Value: address },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
      return created.User?.Username ?? id;
    } catch (error) {
      if (error instanceof UsernameExistsException || error instanceof AliasExistsException)
        throw new AccountExistsError();
      throw error;
    }
  }

  /** A pool that signs in by e-mail names its users itself. */
  override namesNewAccounts(): Promise<boolean> {
    return this.signsInByEmail();
  }

  /** Whether the pool signs in by e-mail: read once (DescribeUserPool), again only after a failed read. */
  private signsInByEmail(): Promise<boolean> {
    this.poolSignsInByEmail ??= this.client
      .send(new DescribeUserPoolCommand({ UserPoolId: this.userPoolId }))
      .then((described) => described.UserPool?.UsernameAttributes?.includes('email') ?? false);
    this.poolSignsInByEmail.catch(() => (this.poolSignsInByEmail = undefined));
    return this.poolSignsInByEmail;
  }

  override async changeEmail(id: string, email: string): Promise<void> {
    await this.client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: this.userPoolId,
        Username: id,
        UserAttributes: [
          { Name: COGNITO_ATTRIBUTES.email, Value: email.toLowerCase() },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
  }

  async ping(): Promise<void> {
    await this.client.send(new DescribeUserPoolCommand({ UserPoolId: this.userPoolId }));
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }

  /** Every user that matches the filter (the whole pool without one), following Cognito's pages. */
  private async listUsers(filter?: string): Promise<IdentityUser[]> {
    const users: IdentityUser[] = [];
    let paginationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListUsersCommand({
          UserPoolId: this.userPoolId,
          ...(filter && { Filter: filter }),
          Limit: MAX_PAGE_SIZE,
          ...(paginationToken && { PaginationToken: paginationToken }),
        }),
      );
      users.push(...(page.Users ?? []).map(fromListing));
      paginationToken = page.PaginationToken;
    } while (paginationToken);
    return users;
  }

  private async createGroup(group: string): Promise<void> {
    try {
      await this.client.send(new CreateGroupCommand({ UserPoolId: this.userPoolId, GroupName: group }));
    } catch (error) {
      // Another request created it meanwhile.
      if ((error as Error).name !== 'GroupExistsException') throw error;
    }
  }

  private async tenantGroupsOf(id: string): Promise<string[]> {
    const pages = paginateAdminListGroupsForUser(this.paging(), { UserPoolId: this.userPoolId, Username: id });
    return tenantGroupNames(pages);
  }

  private async listTenantGroups(): Promise<string[]> {
    return tenantGroupNames(paginateListGroups(this.paging(), { UserPoolId: this.userPoolId }));
  }

  private async listGroup(group: string): Promise<IdentityUser[]> {
    const users: IdentityUser[] = [];
    for await (const page of paginateListUsersInGroup(this.paging(), {
      UserPoolId: this.userPoolId,
      GroupName: group,
    })) {
      users.push(...(page.Users ?? []).map(fromListing));
    }
    return users;
  }

  /** The SDK's paginators follow NextToken; Cognito's largest page. */
  private paging() {
    return { client: this.client, pageSize: MAX_PAGE_SIZE };
  }
}

/** The tenant groups among the groups of a listing. */
async function tenantGroupNames(pages: AsyncIterable<{ Groups?: GroupType[] }>): Promise<string[]> {
  const names: string[] = [];
  for await (const page of pages) {
    for (const group of page.Groups ?? [])
      if (group.GroupName?.startsWith(TENANT_GROUP_PREFIX)) names.push(group.GroupName);
  }
  return names;
}
