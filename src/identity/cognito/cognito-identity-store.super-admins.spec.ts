/**
 * CognitoIdentityStore's super-admins: listed from the super-admin group in pages
 * (CognitoSuperAdminListing), and granted by the group and the attribute.
 */

import {
  AdminAddUserToGroupCommand,
  AdminUpdateUserAttributesCommand,
  InternalErrorException,
  InvalidParameterException,
  ListUsersInGroupCommand,
  TooManyRequestsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { InvalidPageTokenError } from '../identity-store';
import { CognitoIdentityStore } from './cognito-identity-store';
import { client, cognito, config, freshStore, metadata, POOL, poolUser } from './cognito-identity-store.spec-fixtures';
import { decodePageToken, encodePageToken } from './cognito-super-admin-listing';

const superAdmin = (username: string) => poolUser(username, { 'custom:platform_role': 'super_admin' });

describe(CognitoIdentityStore.name, () => {
  let store: CognitoIdentityStore;
  beforeEach(() => (store = freshStore()));

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
});
