/**
 * The user pool as every part of the Cognito store talks to it: the SDK client, Cognito's rule for
 * a Username, and the paging of the SDK's paginators.
 */

import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoConfig } from '../../config/identity-config';
import { MAX_PAGE_SIZE } from '../identity-store';

/** Cognito's own limit: a Username (and a group name) is 1–128 of these characters. */
export const COGNITO_USERNAME = /^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u;

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

/** The SDK's paginators follow NextToken; Cognito's largest page. */
export function paging(client: CognitoIdentityProviderClient) {
  return { client, pageSize: MAX_PAGE_SIZE };
}
