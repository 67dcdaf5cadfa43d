/**
 * The pool's groups as the Cognito store uses them: the super-admin group, and the tenant groups
 * that index a tenant's members (Cognito cannot search custom attributes).
 */

import {
  AdminAddUserToGroupCommand,
  AdminRemoveUserFromGroupCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  GroupType,
  ListUsersInGroupCommand,
  ListUsersInGroupCommandOutput,
  paginateAdminListGroupsForUser,
  paginateListGroups,
  paginateListUsersInGroup,
} from '@aws-sdk/client-cognito-identity-provider';
import { IdentityUser } from '../identity-store';
import { fromListing } from './cognito-attributes';
import { COGNITO_USERNAME, paging } from './cognito-pool';

/**
 * The pool group that indexes a tenant's members: `tenant_` and the tenant id; null when the id
 * cannot make a group name (1–128 characters).
 */
export const TENANT_GROUP_PREFIX = 'tenant_';
export function tenantGroupName(tenantId: string): string | null {
  const name = `${TENANT_GROUP_PREFIX}${tenantId}`;
  return COGNITO_USERNAME.test(name) ? name : null;
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

export class CognitoGroups {
  constructor(
    private readonly client: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async add(id: string, group: string): Promise<void> {
    await this.client.send(
      new AdminAddUserToGroupCommand({ UserPoolId: this.userPoolId, Username: id, GroupName: group }),
    );
  }

  async remove(id: string, group: string): Promise<void> {
    await this.client.send(
      new AdminRemoveUserFromGroupCommand({ UserPoolId: this.userPoolId, Username: id, GroupName: group }),
    );
  }

  /** Adds the user to the tenant's group, creating the group on first use. */
  async joinTenantGroup(id: string, tenantId: string): Promise<void> {
    const group = tenantGroupName(tenantId);
    if (!group) throw new Error(`Tenant id ${JSON.stringify(tenantId)} cannot name a Cognito group`);
    try {
      await this.add(id, group);
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
      await this.create(group);
      await this.add(id, group);
    }
  }

  /** One page of the group's members (ListUsersInGroup): up to `limit`, from `nextToken` if given. */
  page(group: string, limit: number, nextToken?: string): Promise<ListUsersInGroupCommandOutput> {
    return this.client.send(
      new ListUsersInGroupCommand({
        UserPoolId: this.userPoolId,
        GroupName: group,
        Limit: limit,
        ...(nextToken && { NextToken: nextToken }),
      }),
    );
  }

  /** Every member of the group, following its pages. */
  async members(group: string): Promise<IdentityUser[]> {
    const users: IdentityUser[] = [];
    for await (const page of paginateListUsersInGroup(paging(this.client), {
      UserPoolId: this.userPoolId,
      GroupName: group,
    })) {
      users.push(...(page.Users ?? []).map(fromListing));
    }
    return users;
  }

  /** The tenant groups that the user is in. */
  tenantGroupsOf(id: string): Promise<string[]> {
    return tenantGroupNames(
      paginateAdminListGroupsForUser(paging(this.client), { UserPoolId: this.userPoolId, Username: id }),
    );
  }

  /** Every tenant group of the pool. */
  tenantGroups(): Promise<string[]> {
    return tenantGroupNames(paginateListGroups(paging(this.client), { UserPoolId: this.userPoolId }));
  }

  private async create(group: string): Promise<void> {
    try {
      await this.client.send(new CreateGroupCommand({ UserPoolId: this.userPoolId, GroupName: group }));
    } catch (error) {
      // Another request created it meanwhile.
      if ((error as Error).name !== 'GroupExistsException') throw error;
    }
  }
}
