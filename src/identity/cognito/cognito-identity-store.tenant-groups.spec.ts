/**
 * CognitoIdentityStore's tenant memberships (CognitoGroups, CognitoAttributes): the tenant groups
 * that list a tenant's members, and the attributes that say it. Here what cognito-local cannot show:
 * the groups' pages, a group not made yet, and the order of the two writes when one fails.
 */

import {
  AdminAddUserToGroupCommand,
  AdminDeleteUserAttributesCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUpdateUserAttributesCommand,
  CreateGroupCommand,
  GroupExistsException,
  InternalErrorException,
  ListGroupsCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { tenantGroupName } from './cognito-groups';
import { CognitoIdentityStore } from './cognito-identity-store';
import { cognito, freshStore, metadata, POOL, poolUser } from './cognito-identity-store.spec-fixtures';

const member = (username: string, tenantId: string, role = 'member') =>
  poolUser(username, { 'custom:tenant_id': tenantId, 'custom:role': role });
const notFound = () => new ResourceNotFoundException({ message: 'Group not found', ...metadata });

describe(CognitoIdentityStore.name, () => {
  let store: CognitoIdentityStore;
  beforeEach(() => (store = freshStore()));

  describe('tenantGroupName', () => {
    it('tenantGroupName is tenant_<id>, or null for an id that cannot name a group', () => {
      expect(tenantGroupName('4f1c')).toBe('tenant_4f1c');
      expect(tenantGroupName('has space')).toBeNull();
      expect(tenantGroupName('x'.repeat(125))).toBeNull();
    });
  });

  describe('listTenantMembers (ListUsersInGroup of the tenant group)', () => {
    it('listTenantMembers follows every NextToken of the group, then orders by e-mail and id and pages after the key', async () => {
      cognito
        .on(ListUsersInGroupCommand, { GroupName: 'tenant_t1' })
        .resolvesOnce({ Users: [member('d', 't1'), member('b', 't1')], NextToken: 'p2' })
        .resolvesOnce({ Users: [member('c', 't1'), member('a', 't1')] });
      const users = await store.listTenantMembers('t1', { email: 'a@example.com', id: 'a' }, 2);
      expect(users.map((user) => user.id)).toEqual(['b', 'c']);
      // 'b' came on the first page, 'c' on the second (the SDK's paginator reuses one input object).
      expect(cognito.commandCalls(ListUsersInGroupCommand)).toHaveLength(2);
    });

    it('listTenantMembers leaves out group members whose custom:tenant_id names another tenant or none', async () => {
      cognito
        .on(ListUsersInGroupCommand)
        .resolves({ Users: [member('a', 't1'), member('moved', 't2'), poolUser('removed')] });
      expect((await store.listTenantMembers('t1', undefined, 10)).map((user) => user.id)).toEqual(['a']);
    });

    it('listTenantMembers of a tenant without a group is empty; other errors bubble up', async () => {
      cognito.on(ListUsersInGroupCommand).rejectsOnce(notFound());
      expect(await store.listTenantMembers('t1', undefined, 10)).toEqual([]);
      cognito.on(ListUsersInGroupCommand).rejects(new InternalErrorException({ message: 'down', ...metadata }));
      await expect(store.listTenantMembers('t1', undefined, 10)).rejects.toThrow('down');
    });
  });

  describe('setTenantRole', () => {
    it('setTenantRole adds to the group before setting custom:role, creating the group on first use', async () => {
      cognito
        .on(AdminGetUserCommand)
        .resolves({ Username: 'u-1', UserAttributes: [{ Name: 'custom:tenant_id', Value: 't1' }] });
      cognito.on(AdminAddUserToGroupCommand).rejectsOnce(notFound()).resolves({});
      cognito.on(CreateGroupCommand).resolves({});
      cognito.on(AdminUpdateUserAttributesCommand).resolves({});
      await store.setTenantRole('u-1', 'admin');
      expect(cognito.commandCalls(CreateGroupCommand)[0].args[0].input).toEqual({
        UserPoolId: POOL,
        GroupName: 'tenant_t1',
      });
      expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(2);
      expect(cognito.commandCalls(AdminUpdateUserAttributesCommand)[0].args[0].input).toEqual({
        UserPoolId: POOL,
        Username: 'u-1',
        UserAttributes: [{ Name: 'custom:role', Value: 'admin' }],
      });
    });

    it('when the group add fails the role is not set: the member never drops out of the listing', async () => {
      cognito
        .on(AdminGetUserCommand)
        .resolves({ Username: 'u-1', UserAttributes: [{ Name: 'custom:tenant_id', Value: 't1' }] });
      cognito
        .on(AdminAddUserToGroupCommand)
        .rejects(new InternalErrorException({ message: 'group add failed', ...metadata }));
      await expect(store.setTenantRole('u-1', 'admin')).rejects.toThrow('group add failed');
      expect(cognito.commandCalls(AdminUpdateUserAttributesCommand)).toHaveLength(0);
    });
  });

  describe('joinTenantGroup', () => {
    it('a group that another request created meanwhile is joined all the same', async () => {
      cognito.on(AdminAddUserToGroupCommand).rejectsOnce(notFound()).resolves({});
      cognito.on(CreateGroupCommand).rejects(new GroupExistsException({ message: 'exists', ...metadata }));
      await store.joinTenantGroup('u-1', 't1');
      expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(2);
    });
  });

  describe('removeFromTenant', () => {
    it('removeFromTenant deletes the tenant attributes; the account stays', async () => {
      cognito.on(AdminDeleteUserAttributesCommand).resolves({});
      cognito.on(AdminListGroupsForUserCommand).resolves({ Groups: [] });
      await store.removeFromTenant('u-1');
      expect(cognito.commandCalls(AdminDeleteUserAttributesCommand)[0].args[0].input).toEqual({
        UserPoolId: POOL,
        Username: 'u-1',
        UserAttributeNames: ['custom:tenant_id', 'custom:role'],
      });
      expect(cognito.commandCalls(AdminDeleteUserCommand)).toHaveLength(0);
    });

    it('removeFromTenant clears the attributes first, then leaves every tenant group (not other groups)', async () => {
      cognito.on(AdminDeleteUserAttributesCommand).resolves({});
      cognito
        .on(AdminListGroupsForUserCommand)
        .resolvesOnce({ Groups: [{ GroupName: 'tenant_t1' }, { GroupName: 'super_admin' }], NextToken: 'n' })
        .resolvesOnce({ Groups: [{ GroupName: 'tenant_old' }] });
      cognito.on(AdminRemoveUserFromGroupCommand).resolves({});
      await store.removeFromTenant('u-1');
      expect(cognito.commandCalls(AdminRemoveUserFromGroupCommand).map((call) => call.args[0].input.GroupName)).toEqual(
        ['tenant_t1', 'tenant_old'],
      );
      const calls = cognito.calls().map((call) => call.args[0].constructor.name);
      expect(calls[0]).toBe('AdminDeleteUserAttributesCommand');
    });

    it('when clearing the attributes fails, the user stays in the group: never a member missing from the listing', async () => {
      cognito
        .on(AdminDeleteUserAttributesCommand)
        .rejects(new InternalErrorException({ message: 'down', ...metadata }));
      await expect(store.removeFromTenant('u-1')).rejects.toThrow('down');
      expect(cognito.commandCalls(AdminRemoveUserFromGroupCommand)).toHaveLength(0);
    });
  });

  describe('syncTenantGroups', () => {
    it('syncTenantGroups follows the pages of groups, group members and users', async () => {
      cognito
        .on(ListGroupsCommand)
        .resolvesOnce({ Groups: [{ GroupName: 'tenant_t1' }], NextToken: 'g2' })
        .resolvesOnce({ Groups: [{ GroupName: 'super_admin' }, { GroupName: 'tenant_t2' }] });
      cognito
        .on(ListUsersInGroupCommand, { GroupName: 'tenant_t1' })
        .resolves({ Users: [member('a', 't1'), member('moved', 't2')] });
      cognito.on(ListUsersInGroupCommand, { GroupName: 'tenant_t2' }).resolves({ Users: [] });
      cognito
        .on(ListUsersCommand)
        .resolvesOnce({ Users: [member('a', 't1'), member('moved', 't2')], PaginationToken: 'u2' })
        .resolvesOnce({ Users: [member('new', 't1'), poolUser('loose')] });
      cognito.on(AdminRemoveUserFromGroupCommand).resolves({});
      cognito.on(AdminAddUserToGroupCommand).resolves({});
      expect(await store.syncTenantGroups()).toEqual({ joined: 2, left: 1 });
      expect(cognito.commandCalls(AdminRemoveUserFromGroupCommand)[0].args[0].input).toMatchObject({
        Username: 'moved',
        GroupName: 'tenant_t1',
      });
      expect(cognito.commandCalls(AdminAddUserToGroupCommand).map((call) => call.args[0].input)).toEqual([
        { UserPoolId: POOL, Username: 'moved', GroupName: 'tenant_t2' },
        { UserPoolId: POOL, Username: 'new', GroupName: 'tenant_t1' },
      ]);
      expect(cognito.commandCalls(ListUsersCommand)[0].args[0].input.Filter).toBeUndefined();
    });
  });
});
