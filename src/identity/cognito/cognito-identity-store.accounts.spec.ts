/** CognitoIdentityStore's accounts (CognitoAccounts): made on either kind of pool, signed out everywhere, and deleted. */

import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminUserGlobalSignOutCommand,
  DescribeUserPoolCommand,
  InternalErrorException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { AccountExistsError } from '../identity-store';
import { CognitoIdentityStore } from './cognito-identity-store';
import { cognito, freshStore, metadata, POOL } from './cognito-identity-store.spec-fixtures';

describe(CognitoIdentityStore.name, () => {
  let store: CognitoIdentityStore;
  beforeEach(() => (store = freshStore()));

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

  describe('deleteUser (AdminDeleteUser)', () => {
    it('deleteUser is AdminDeleteUser', async () => {
      cognito.on(AdminDeleteUserCommand).resolves({});
      await store.deleteUser('u-1');
      expect(cognito.commandCalls(AdminDeleteUserCommand)[0].args[0].input).toEqual({
        UserPoolId: POOL,
        Username: 'u-1',
      });
    });
  });

  describe('signOutEverywhere (AdminUserGlobalSignOut; cognito-local does not implement it, so only here)', () => {
    it("a person's sessions ended everywhere is AdminUserGlobalSignOut of their username in the pool", async () => {
      cognito.on(AdminUserGlobalSignOutCommand).resolves({});
      await store.signOutEverywhere('u-1');
      expect(cognito.commandCalls(AdminUserGlobalSignOutCommand).map((call) => call.args[0].input)).toEqual([
        { UserPoolId: POOL, Username: 'u-1' },
      ]);
    });

    it("the pool's refusal reaches the caller (SessionsService logs it; the not-before holds)", async () => {
      cognito.on(AdminUserGlobalSignOutCommand).rejects(new InternalErrorException({ message: 'down', ...metadata }));
      await expect(store.signOutEverywhere('u-1')).rejects.toBeInstanceOf(InternalErrorException);
    });
  });
});
