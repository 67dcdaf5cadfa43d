/**
 * What the CognitoIdentityStore specs share: the pool's config, a client whose calls are mocked,
 * a store over it, and a pool user as ListUsers returns one.
 */

import { CognitoIdentityProviderClient, UserType } from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { CognitoConfig } from '../../config/identity-config';
import { CognitoIdentityStore } from './cognito-identity-store';

export const POOL = 'eu-west-1_TestPool';
export const config: CognitoConfig = {
  userPoolId: POOL,
  clientId: 'client',
  region: 'eu-west-1',
  superAdminGroup: 'super_admin',
};
export const metadata = { $metadata: {} };

export const client = new CognitoIdentityProviderClient({ region: 'eu-west-1' });
export const cognito = mockClient(client);

/** A store with no calls behind it: one a test, since a store keeps what it read of the pool's set-up. */
export function freshStore(): CognitoIdentityStore {
  cognito.reset();
  return new CognitoIdentityStore(client, config);
}

/** A pool user as ListUsers / ListUsersInGroup return it. */
export function poolUser(username: string, attributes: Record<string, string> = {}): UserType {
  return {
    Username: username,
    Attributes: Object.entries({ email: `${username}@example.com`, ...attributes }).map(([Name, Value]) => ({
      Name,
      Value,
    })),
  };
}
