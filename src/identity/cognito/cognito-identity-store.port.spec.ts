import {
  AdminAddUserToGroupCommand,
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  AliasExistsException,
  CognitoIdentityProviderClient,
  InternalErrorException,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { AccountExistsError, AccountNotFoundError, IdentityStore } from '../identity-store';
import { CognitoIdentityStore } from './cognito-identity-store';

const metadata = { $metadata: {} };

/**
 * What the Cognito store answers where the two stores differ, so that its callers need not know
 * which one they ask: e-mail verification, where memberships and readiness go, and the SDK's
 * errors that mean something to them, in the port's own error types.
 */
describe(`${CognitoIdentityStore.name}, where the stores differ`, () => {
  const client = new CognitoIdentityProviderClient({ region: 'eu-west-1' });
  const cognito = mockClient(client);
  let store: CognitoIdentityStore;

  beforeEach(() => {
    cognito.reset();
    store = new CognitoIdentityStore(client, { userPoolId: 'eu-west-1_TestPool', superAdminGroup: 'super_admin' });
  });

  it('a session without an email_verified claim is unverified: the pool always sets it', () => {
    expect(store.claimDeniesVerification(undefined)).toBe(true);
    expect(store.claimDeniesVerification(false)).toBe(true);
    expect(store.claimDeniesVerification(true)).toBe(false);
  });

  it("emailVerified reads the user's attribute, whatever the claim; false for a user the pool does not have", async () => {
    cognito
      .on(AdminGetUserCommand)
      .resolvesOnce({ Username: 'u-1', UserAttributes: [{ Name: 'email_verified', Value: 'false' }] })
      .resolvesOnce({ Username: 'u-1', UserAttributes: [{ Name: 'email_verified', Value: 'true' }] })
      .rejectsOnce(new UserNotFoundException({ message: 'User does not exist.', ...metadata }));
    const port: IdentityStore = store;
    expect(await port.emailVerified('u-1', true)).toBe(false);
    expect(await port.emailVerified('u-1', undefined)).toBe(true);
    expect(await port.emailVerified('ghost', true)).toBe(false);
  });

  it("the joins' memberships go to the pool after their transaction; no users rows; pinged for readiness", () => {
    expect(store.poolMemberships()).toBe(store);
    expect(store.accountRows()).toBeNull();
    expect(store.pingedForReadiness).toBe(true);
  });

  it('a grant for a user the pool no longer has is AccountNotFoundError, with the pool’s message', async () => {
    cognito
      .on(AdminAddUserToGroupCommand)
      .rejects(new UserNotFoundException({ message: 'User does not exist.', ...metadata }));
    const refusal = store.grantMembership('ghost', 't-1', 'member');
    await expect(refusal).rejects.toBeInstanceOf(AccountNotFoundError);
    await expect(refusal).rejects.toThrow('User does not exist.');
  });

  it('an address change to an address another user has is AccountExistsError; other errors bubble up', async () => {
    cognito
      .on(AdminUpdateUserAttributesCommand)
      .rejectsOnce(
        new AliasExistsException({ message: 'An account with the given email already exists.', ...metadata }),
      )
      .rejectsOnce(new InternalErrorException({ message: 'boom', ...metadata }));
    await expect(store.changeEmail('u-1', 'taken@example.com')).rejects.toBeInstanceOf(AccountExistsError);
    await expect(store.changeEmail('u-1', 'any@example.com')).rejects.toThrow('boom');
  });
});
