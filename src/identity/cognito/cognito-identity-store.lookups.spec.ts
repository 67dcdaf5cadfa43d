/** CognitoIdentityStore's reads of users (CognitoLookups): by id, by e-mail, and a tenant's member by e-mail. */

import {
  AdminGetUserCommand,
  InternalErrorException,
  ListUsersCommand,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { CognitoIdentityStore } from './cognito-identity-store';
import { cognito, freshStore, metadata, POOL, poolUser } from './cognito-identity-store.spec-fixtures';
import { equalsFilter } from './cognito-lookups';

describe(CognitoIdentityStore.name, () => {
  let store: CognitoIdentityStore;
  beforeEach(() => (store = freshStore()));

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
});
