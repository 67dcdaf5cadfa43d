import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserAttributesCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  DescribeUserPoolCommand,
  GroupExistsException,
  InternalErrorException,
  ListGroupsCommand,
  ResourceNotFoundException,
  InvalidParameterException,
  ListUsersCommand,
  ListUsersInGroupCommand,
  TooManyRequestsException,
  UserNotFoundException,
  UsernameExistsException,
  UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CognitoConfig } from '../../config/identity-config';
import { AccountExistsError, InvalidPageTokenError } from '../identity-store';
import { tenantGroupName } from './cognito-groups';
import { CognitoIdentityStore } from './cognito-identity-store';
import { equalsFilter } from './cognito-lookups';
import { createCognitoClient } from './cognito-pool';
import { decodePageToken, encodePageToken } from './cognito-super-admin-listing';

const POOL = 'eu-west-1_TestPool';
const config: CognitoConfig = {
  userPoolId: POOL,
  clientId: 'client',
  region: 'eu-west-1',
  superAdminGroup: 'super_admin',
};
const metadata = { $metadata: {} };

/** A pool user as ListUsers / ListUsersInGroup return it. */
function poolUser(username: string, attributes: Record<string, string> = {}): UserType {
  return {
    Username: username,
    Attributes: Object.entries({ email: `${username}@example.com`, ...attributes }).map(([Name, Value]) => ({
      Name,
      Value,
    })),
  };
}
const superAdmin = (username: string) => poolUser(username, { 'custom:platform_role': 'super_admin' });

describe(CognitoIdentityStore.name, () => {
  const client = new CognitoIdentityProviderClient({ region: 'eu-west-1' });
  const cognito = mockClient(client);
  let store: CognitoIdentityStore;

  beforeEach(() => {
    cognito.reset();
    store = new CognitoIdentityStore(client, config);
  });

  describe('createAccount (AdminCreateUser), on either kind of pool', () => {
    const created = (username: string) => ({ User: { Username: username }, ...metadata });

    it('a pool with separate usernames: the id given is the Username, and the id', async () => {
      cognito.on(DescribeUserPoolCommand).resolves({ UserPool: { UsernameAttributes: [] }, ...metadata });
      cognito.on(AdminCreateUserCommand).resolves(created('u-1'));
      expect(await store.createAccount('u-1', 'Ann@Example.com')).toBe('u-1');
      expect(cognito.commandCalls(AdminCreateUserCommand)[0].args[0].input).toMatchObject({
        Username: 'u-1',
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: 'ann@example.com' },
          { Name: 'email_verified', Value: 'true' },
        ],
      });
    });

    it('a pool that signs in by e-mail: the address is the Username, the name the pool gives is the id; read once', async () => {
      cognito.on(DescribeUserPoolCommand).resolves({ UserPool: { UsernameAttributes: ['email'] }, ...metadata });
      cognito.on(AdminCreateUserCommand).resolvesOnce(created('9d0f-sub-1')).resolvesOnce(created('9d0f-sub-2'));
      expect(await store.createAccount('ours-1', 'Ann@Example.com')).toBe('9d0f-sub-1');
      expect(await store.createAccount('ours-2', 'bob@example.com')).toBe('9d0f-sub-2');
      expect(cognito.commandCalls(AdminCreateUserCommand).map((call) => call.args[0].input.Username)).toEqual([
        'ann@example.com',
        'bob@example.com',
      ]);
      expect(cognito.commandCalls(DescribeUserPoolCommand)).toHaveLength(1);
    });

    it('the set-up read again after a failed read; an address the pool has already is AccountExistsError', async () => {
      cognito
        .on(DescribeUserPoolCommand)
        .rejectsOnce(new InternalErrorException({ message: 'down', ...metadata }))
        .resolves({ UserPool: { UsernameAttributes: ['email'] }, ...metadata });
      cognito
        .on(AdminCreateUserCommand)
        .rejects(
          new UsernameExistsException({ message: 'An account with the given email already exists.', ...metadata }),
        );
      await expect(store.createAccount('x', 'ann@example.com')).rejects.toBeInstanceOf(InternalErrorException);
      await expect(store.createAccount('x', 'ann@example.com')).rejects.toBeInstanceOf(AccountExistsError);
      expect(cognito.commandCalls(DescribeUserPoolCommand)).toHaveLength(2);
    });
  });

  describe('findById (AdminGetUser)', () => {
    it('maps the pool record: id is the Username, e-mail lower-cased, custom attributes by name', async () => {
      cognito.on(AdminGetUserCommand, { UserPoolId: POOL, Username: 'u-1' }).resolves({
        Username: 'u-1',
        UserAttributes: [
          { Name: 'sub', Value: '6f1c…' },
          { Name: 'email', Value: 'Alice@Example.COM' },
          { Name: 'custom:platform_role', Value: 'super_admin' },
          { Name: 'custom:user_type', Value: 'org' },
          { Name: 'custom:tenant_id', Value: 't-1' },
          { Name: 'custom:role', Value: 'owner' },
        ],
      });
      expect(await store.findById('u-1')).toEqual({
        id: 'u-1',
        email: 'alice@example.com',
        platformRole: 'super_admin',
        userType: 'org',
        tenantId: 't-1',
        role: 'owner',
      });
    });

    it('absent attributes are null', async () => {
      cognito
        .on(AdminGetUserCommand)
        .resolves({ Username: 'u-2', UserAttributes: [{ Name: 'email', Value: 'b@example.com' }] });
      expect(await store.findById('u-2')).toEqual({
        id: 'u-2',
        email: 'b@example.com',
        platformRole: null,
        userType: null,
        tenantId: null,
        role: null,
      });
    });

    it('the id is the Username Cognito answers with (a look-up by sub finds the user)', async () => {
      cognito.on(AdminGetUserCommand).resolves({ Username: 'real-name', UserAttributes: [] });
      expect((await store.findById('0b6e4f5c-sub'))?.id).toBe('real-name');
    });

    it('UserNotFoundException is "not found": null', async () => {
      cognito
        .on(AdminGetUserCommand)
        .rejects(new UserNotFoundException({ message: 'User does not exist.', ...metadata }));
      expect(await store.findById('ghost')).toBeNull();
    });

    it('any other SDK error bubbles up', async () => {
      cognito.on(AdminGetUserCommand).rejects(new InternalErrorException({ message: 'boom', ...metadata }));
      await expect(store.findById('u-1')).rejects.toThrow('boom');
    });

    it.each(['', 'x'.repeat(129), 'has space', "' OR '1'='1", 'tab\there'])(
      'an id Cognito would refuse as a Username (%p) is not found, without a call',
      async (id) => {
        expect(await store.findById(id)).toBeNull();
        expect(cognito.calls()).toHaveLength(0);
      },
    );

    it('a unicode Username is looked up', async () => {
      cognito
        .on(AdminGetUserCommand)
        .rejects(new UserNotFoundException({ message: 'User does not exist.', ...metadata }));
      expect(await store.findById('ユーザー')).toBeNull();
      expect(cognito.commandCalls(AdminGetUserCommand)).toHaveLength(1);
    });
  });

  describe('findByEmail (ListUsers with an email filter)', () => {
    it('searches the lower-cased address and lower-cases what it returns', async () => {
      cognito.on(ListUsersCommand).resolves({ Users: [poolUser('u-1', { email: 'alice@example.com' })] });
      const users = await store.findByEmail('alice@example.com');
      expect(users.map((u) => u.id)).toEqual(['u-1']);
      expect(cognito.commandCalls(ListUsersCommand).map((c) => c.args[0].input)).toEqual([
        { UserPoolId: POOL, Filter: 'email = "alice@example.com"', Limit: 60 },
      ]);
    });

    it('a mixed-case address is searched lower-cased and as given, results merged without duplicates', async () => {
      cognito
        .on(ListUsersCommand, { Filter: 'email = "alice@example.com"' })
        .resolves({ Users: [poolUser('lower', { email: 'alice@example.com' })] })
        .on(ListUsersCommand, { Filter: 'email = "Alice@Example.com"' })
        .resolves({
          Users: [poolUser('mixed', { email: 'Alice@Example.com' }), poolUser('lower', { email: 'alice@example.com' })],
        });
      const users = await store.findByEmail('Alice@Example.com');
      expect(users).toEqual([
        expect.objectContaining({ id: 'lower', email: 'alice@example.com' }),
        expect.objectContaining({ id: 'mixed', email: 'alice@example.com' }),
      ]);
      expect(cognito.commandCalls(ListUsersCommand)).toHaveLength(2);
    });

    it('keeps only exact matches, whatever the search returned', async () => {
      cognito.on(ListUsersCommand).resolves({
        Users: [poolUser('near', { email: 'xalice@example.com' }), poolUser('exact', { email: 'ALICE@example.com' })],
      });
      expect((await store.findByEmail('alice@example.com')).map((u) => u.id)).toEqual(['exact']);
    });

    it('a look-alike is searched in its comparison form too, so that the member stored in that form is found', async () => {
      cognito
        .on(ListUsersCommand)
        .callsFake(({ Filter }) => ({ Users: Filter === 'email = "kate@example.com"' ? [poolUser('kate')] : [] }));
      for (const lookAlike of ['\uFF2BATE@example.com', '\u212Aate@example.com', 'KA\u00ADTE@example.com']) {
        cognito.resetHistory();
        expect((await store.findByEmail(lookAlike)).map((u) => u.id)).toEqual(['kate']);
        const spellings = new Set([lookAlike.toLowerCase(), lookAlike, 'kate@example.com']); // K lower-cases to k
        expect(cognito.commandCalls(ListUsersCommand).map((c) => c.args[0].input.Filter)).toEqual(
          [...spellings].map((spelling) => `email = "${spelling}"`),
        );
      }
    });

    it('keeps what the search found only when sameEmail agrees: plus tags and accents are other addresses', async () => {
      cognito.on(ListUsersCommand).resolves({
        Users: [
          poolUser('tagged', { email: 'kate+news@example.com' }),
          poolUser('accent', { email: 'kat\u00E9@example.com' }),
          poolUser('sharp-s', { email: 'stra\u00DFe@example.com' }),
        ],
      });
      expect((await store.findByEmail('STRASSE@example.com')).map((u) => u.id)).toEqual(['sharp-s']);
    });

    it('a stored address not in its comparison form is searched only in the spellings of the given one (a documented limit)', async () => {
      cognito.on(ListUsersCommand).resolves({ Users: [] });
      await store.findByEmail('strasse@example.com');
      // `straße@example.com` in the pool would need a search for that spelling: it is not made.
      expect(cognito.commandCalls(ListUsersCommand).map((c) => c.args[0].input.Filter)).toEqual([
        'email = "strasse@example.com"',
      ]);
    });

    it('follows PaginationToken to the last page', async () => {
      cognito
        .on(ListUsersCommand)
        .resolvesOnce({ Users: [poolUser('a', { email: 'dup@example.com' })], PaginationToken: 'p2' })
        .resolvesOnce({ Users: [poolUser('b', { email: 'dup@example.com' })] });
      expect((await store.findByEmail('dup@example.com')).map((u) => u.id)).toEqual(['a', 'b']);
      expect(cognito.commandCalls(ListUsersCommand)[1].args[0].input.PaginationToken).toBe('p2');
    });

    it('escapes quotes and backslashes in the filter value', async () => {
      cognito.on(ListUsersCommand).resolves({ Users: [] });
      await store.findByEmail('" or 1=1 \\');
      expect(cognito.commandCalls(ListUsersCommand)[0].args[0].input.Filter).toBe('email = "\\" or 1=1 \\\\"');
      expect(equalsFilter('email', 'a"b\\c')).toBe('email = "a\\"b\\\\c"');
    });

    it('a comparison form too long for a filter is not searched; the address as given is', async () => {
      cognito.on(ListUsersCommand).resolves({ Users: [] });
      const address = `${'\uFDFA'.repeat(20)}@example.com`; // folds to 360 letters
      expect(await store.findByEmail(address)).toEqual([]);
      expect(cognito.commandCalls(ListUsersCommand).map((c) => c.args[0].input.Filter)).toEqual([
        `email = "${address}"`,
      ]);
    });

    it('an address too long for a Cognito filter is an error that says so', async () => {
      await expect(store.findByEmail(`${'a'.repeat(250)}@example.com`)).rejects.toThrow(/too long to search/);
      expect(cognito.calls()).toHaveLength(0);
    });
  });

  describe('findTenantMemberByEmail', () => {
    it('searches by e-mail and picks the user of that tenant: one filtered search, never a scan', async () => {
      cognito.on(ListUsersCommand).resolves({
        Users: [
          poolUser('other', { email: 'm@example.com', 'custom:tenant_id': 't-2' }),
          poolUser('member', { email: 'm@example.com', 'custom:tenant_id': 't-1' }),
        ],
      });
      expect((await store.findTenantMemberByEmail('t-1', 'M@example.com'))?.id).toBe('member');
      expect(await store.findTenantMemberByEmail('t-3', 'm@example.com')).toBeNull();
      for (const call of cognito.commandCalls(ListUsersCommand)) expect(call.args[0].input.Filter).toMatch(/^email = /);
    });
  });

  describe('listSuperAdmins (ListUsersInGroup)', () => {
    it('asks the configured group for a page of `limit`; the last page has no nextToken', async () => {
      cognito.on(ListUsersInGroupCommand).resolves({ Users: [superAdmin('a'), superAdmin('b')] });
      const page = await store.listSuperAdmins({ limit: 2 });
      expect(page).toEqual({ users: [expect.objectContaining({ id: 'a' }), expect.objectContaining({ id: 'b' })] });
      expect(cognito.commandCalls(ListUsersInGroupCommand)[0].args[0].input).toEqual({
        UserPoolId: POOL,
        GroupName: 'super_admin',
        Limit: 2,
      });
    });

    it('uses COGNITO_SUPER_ADMIN_GROUP', async () => {
      cognito.on(ListUsersInGroupCommand).resolves({ Users: [] });
      await new CognitoIdentityStore(client, { ...config, superAdminGroup: 'platform-admins' }).listSuperAdmins({
        limit: 60,
      });
      expect(cognito.commandCalls(ListUsersInGroupCommand)[0].args[0].input.GroupName).toBe('platform-admins');
    });

    it.each([
      [61, 60],
      [1000, 60],
      [0, 1],
    ])('never asks Cognito for more than 60 (its own cap): limit %p is Limit %p', async (limit, sent) => {
      cognito.on(ListUsersInGroupCommand).resolves({ Users: [] });
      await store.listSuperAdmins({ limit });
      expect(cognito.commandCalls(ListUsersInGroupCommand)[0].args[0].input.Limit).toBe(sent);
    });

    it("maps Cognito's NextToken onto the API's token and back", async () => {
      cognito
        .on(ListUsersInGroupCommand, { NextToken: undefined })
        .resolves({ Users: [superAdmin('a')], NextToken: 'cognito/next+token==' })
        .on(ListUsersInGroupCommand, { NextToken: 'cognito/next+token==' })
        .resolves({ Users: [superAdmin('b')] });
      const first = await store.listSuperAdmins({ limit: 1 });
      expect(first.nextToken).toMatch(/^[A-Za-z0-9_-]+$/);
      const second = await store.listSuperAdmins({ limit: 1, token: first.nextToken });
      expect(second).toEqual({ users: [expect.objectContaining({ id: 'b' })] });
      expect(cognito.commandCalls(ListUsersInGroupCommand)[1].args[0].input).toMatchObject({
        NextToken: 'cognito/next+token==',
        Limit: 1,
      });
    });

    it('a backend page bigger than asked (cognito-local ignores Limit) is split: never more than `limit` users', async () => {
      const members = ['a', 'b', 'c', 'd', 'e'].map(superAdmin);
      cognito.on(ListUsersInGroupCommand).resolves({ Users: members });
      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await store.listSuperAdmins({ limit: 2, token });
        expect(page.users.length).toBeLessThanOrEqual(2);
        seen.push(...page.users.map((u) => u.id));
        token = page.nextToken;
        pages++;
      } while (token && pages < 10);
      expect(pages).toBe(3);
      expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it("a split page hands over to Cognito's own NextToken once it is used up", async () => {
      cognito
        .on(ListUsersInGroupCommand, { NextToken: undefined })
        .resolves({ Users: [superAdmin('a'), superAdmin('b'), superAdmin('c')], NextToken: 'n2' })
        .on(ListUsersInGroupCommand, { NextToken: 'n2' })
        .resolves({ Users: [superAdmin('d')] });
      const first = await store.listSuperAdmins({ limit: 2 });
      const second = await store.listSuperAdmins({ limit: 2, token: first.nextToken });
      expect(second.users.map((u) => u.id)).toEqual(['c']);
      const third = await store.listSuperAdmins({ limit: 2, token: second.nextToken });
      expect(third).toEqual({ users: [expect.objectContaining({ id: 'd' })] });
    });

    it('the attribute is the source of truth: a group member without custom:platform_role=super_admin is not listed', async () => {
      cognito.on(ListUsersInGroupCommand).resolves({ Users: [superAdmin('a'), poolUser('half-granted')] });
      expect((await store.listSuperAdmins({ limit: 60 })).users.map((u) => u.id)).toEqual(['a']);
    });

    it.each([
      ['not base64url', 'not a token'],
      ['punctuation', '!!!'],
      ['over-long', 'x'.repeat(5000)],
      ['base64url of garbage', 'x'.repeat(3000)],
      ['not JSON', Buffer.from('hello').toString('base64url')],
      ['JSON of the wrong shape', Buffer.from('[1,2]').toString('base64url')],
      ['unknown fields', Buffer.from('{"n":"a","x":1}').toString('base64url')],
      ['an empty cursor', Buffer.from('{}').toString('base64url')],
      ['a negative skip', Buffer.from('{"s":-2}').toString('base64url')],
      ['a fractional skip', Buffer.from('{"s":1.5}').toString('base64url')],
      ['white space in the Cognito token', Buffer.from('{"n":"a b"}').toString('base64url')],
      ['a non-canonical spelling', `${encodePageToken({ n: 'abc' })}A`],
    ])('a malformed token (%s) is InvalidPageTokenError, without a call', async (_, token) => {
      await expect(store.listSuperAdmins({ limit: 10, token })).rejects.toBeInstanceOf(InvalidPageTokenError);
      expect(cognito.calls()).toHaveLength(0);
    });

    it('a well-formed token whose Cognito part Cognito refuses is InvalidPageTokenError', async () => {
      cognito
        .on(ListUsersInGroupCommand)
        .rejects(new InvalidParameterException({ message: 'Invalid token', ...metadata }));
      await expect(
        store.listSuperAdmins({ limit: 10, token: encodePageToken({ n: 'forged' }) }),
      ).rejects.toBeInstanceOf(InvalidPageTokenError);
    });

    it('token encoding round-trips', () => {
      for (const cursor of [{ n: 'abc/+=' }, { s: 4 }, { n: 'x', s: 2 }]) {
        expect(decodePageToken(encodePageToken(cursor))).toEqual(cursor);
      }
    });

    it('other SDK errors bubble up (throttling that outlasted the retries included)', async () => {
      cognito
        .on(ListUsersInGroupCommand)
        .rejects(new TooManyRequestsException({ message: 'Rate exceeded', ...metadata }));
      await expect(store.listSuperAdmins({ limit: 10 })).rejects.toThrow('Rate exceeded');
    });
  });

  describe('grantSuperAdmin', () => {
    it('adds to the group first, then sets custom:platform_role=super_admin', async () => {
      cognito.on(AdminAddUserToGroupCommand).resolves({}).on(AdminUpdateUserAttributesCommand).resolves({});
      await store.grantSuperAdmin('u-1');
      const calls = cognito.calls().map((call) => call.args[0]);
      expect(calls.map((command) => command.constructor.name)).toEqual([
        'AdminAddUserToGroupCommand',
        'AdminUpdateUserAttributesCommand',
      ]);
      expect(calls[0].input).toEqual({ UserPoolId: POOL, Username: 'u-1', GroupName: 'super_admin' });
      expect(calls[1].input).toEqual({
        UserPoolId: POOL,
        Username: 'u-1',
        UserAttributes: [{ Name: 'custom:platform_role', Value: 'super_admin' }],
      });
    });

    it('when the group add fails the attribute is not set: no super-admin missing from the listing', async () => {
      cognito
        .on(AdminAddUserToGroupCommand)
        .rejects(new InternalErrorException({ message: 'group add failed', ...metadata }));
      await expect(store.grantSuperAdmin('u-1')).rejects.toThrow('group add failed');
      expect(cognito.commandCalls(AdminUpdateUserAttributesCommand)).toHaveLength(0);
    });
  });

  describe('deleteUser, removeFromTenant, ping', () => {
    it('deleteUser is AdminDeleteUser', async () => {
      cognito.on(AdminDeleteUserCommand).resolves({});
      await store.deleteUser('u-1');
      expect(cognito.commandCalls(AdminDeleteUserCommand)[0].args[0].input).toEqual({
        UserPoolId: POOL,
        Username: 'u-1',
      });
    });

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

    it('ping is DescribeUserPool', async () => {
      cognito.on(DescribeUserPoolCommand).resolves({ UserPool: { Id: POOL } });
      await store.ping();
      expect(cognito.commandCalls(DescribeUserPoolCommand)[0].args[0].input).toEqual({ UserPoolId: POOL });
    });
  });

  describe('tenant groups: what cognito-local cannot show', () => {
    const member = (username: string, tenantId: string, role = 'member') =>
      poolUser(username, { 'custom:tenant_id': tenantId, 'custom:role': role });
    const notFound = () => new ResourceNotFoundException({ message: 'Group not found', ...metadata });

    it('tenantGroupName is tenant_<id>, or null for an id that cannot name a group', () => {
      expect(tenantGroupName('4f1c')).toBe('tenant_4f1c');
      expect(tenantGroupName('has space')).toBeNull();
      expect(tenantGroupName('x'.repeat(125))).toBeNull();
    });

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

    it('a group that another request created meanwhile is joined all the same', async () => {
      cognito.on(AdminAddUserToGroupCommand).rejectsOnce(notFound()).resolves({});
      cognito.on(CreateGroupCommand).rejects(new GroupExistsException({ message: 'exists', ...metadata }));
      await store.joinTenantGroup('u-1', 't1');
      expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(2);
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

describe(createCognitoClient.name, () => {
  let server: Server;
  let requests = 0;
  let throttleFirst = 0;
  const saved = { ...process.env };

  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        if (requests <= throttleFirst) {
          res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
          res.end(JSON.stringify({ __type: 'TooManyRequestsException', message: 'Rate exceeded' }));
        } else {
          res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
          res.end(JSON.stringify({ UserPool: { Id: POOL } }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    process.env = { ...saved };
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests = 0;
  });

  const storeAt = () => {
    const { port } = server.address() as AddressInfo;
    const cognito = { ...config, endpoint: `http://127.0.0.1:${port}` };
    return new CognitoIdentityStore(createCognitoClient(cognito), cognito);
  };

  it('calls the configured endpoint and retries throttling with the standard strategy', async () => {
    throttleFirst = 2;
    await storeAt().ping();
    expect(requests).toBe(3);
  });

  it('gives up after 3 attempts: the throttling error bubbles up', async () => {
    throttleFirst = 10;
    await expect(storeAt().ping()).rejects.toMatchObject({ name: 'TooManyRequestsException' });
    expect(requests).toBe(3);
  });
});
