/**
 * The identity store's settings: which store holds the accounts, the local store's session key, the
 * session cookie, and the Cognito user pool.
 */

import { ConfigError, Env, NodeEnv, read, url } from './env-values';

/** Which identity store holds the accounts (IDENTITY_STORE): the users table, or a Cognito user pool. */
export const IDENTITY_STORES = ['local', 'cognito'] as const;
export type IdentityStoreKind = (typeof IDENTITY_STORES)[number];

/** The Cognito user pool's settings. */
export interface CognitoConfig {
  userPoolId?: string;
  clientId?: string;
  region?: string;
  endpoint?: string;
  superAdminGroup: string;
}

/**
 * The Cognito user pool that holds the accounts and signs the sessions (IDENTITY_STORE=cognito); null
 * when the users table holds them and the service signs the sessions itself.
 */
export function userPoolOf(config: { identityStore: IdentityStoreKind; cognito: CognitoConfig }): CognitoConfig | null {
  return config.identityStore === 'cognito' ? config.cognito : null;
}

/** The local store's session key when AUTH_JWT_SECRET is unset outside production: known to all. */
export const DEVELOPMENT_JWT_SECRET = 'development-only-insecure-key-change-me';

/** An HS256 key is at least as long as the hash, 32 bytes (RFC 7518, 3.2): shorter is refused in production. */
export const MIN_JWT_SECRET_BYTES = 32;

/**
 * AUTH_JWT_SECRET, the local store's HS256 key; undefined when unset. Production on the local store
 * requires one of at least MIN_JWT_SECRET_BYTES.
 */
export function authJwtSecret(env: Env, nodeEnv: NodeEnv, identityStore: IdentityStoreKind): string | undefined {
  const jwtSecret = read(env, 'AUTH_JWT_SECRET');
  if (!jwtSecret && nodeEnv === 'production' && identityStore === 'local') {
    throw new ConfigError('AUTH_JWT_SECRET', 'must be set when NODE_ENV=production');
  }
  const jwtSecretBytes = jwtSecret === undefined ? 0 : Buffer.byteLength(jwtSecret);
  if (jwtSecret && jwtSecretBytes < MIN_JWT_SECRET_BYTES && nodeEnv === 'production' && identityStore === 'local') {
    throw new ConfigError(
      'AUTH_JWT_SECRET',
      `must be at least ${MIN_JWT_SECRET_BYTES} bytes when NODE_ENV=production (an HS256 key), got ${jwtSecretBytes}`,
    );
  }
  return jwtSecret;
}

/** The user pool's settings; IDENTITY_STORE=cognito requires the pool, the client and the region. */
export function cognitoSettings(env: Env, identityStore: IdentityStoreKind): CognitoConfig {
  const cognito: CognitoConfig = {
    userPoolId: read(env, 'COGNITO_USER_POOL_ID'),
    clientId: read(env, 'COGNITO_CLIENT_ID'),
    region: read(env, 'AWS_REGION'),
    endpoint: url(env, 'COGNITO_ENDPOINT', ['http', 'https'])?.replace(/\/+$/, ''),
    superAdminGroup: read(env, 'COGNITO_SUPER_ADMIN_GROUP') ?? 'super_admin',
  };
  if (identityStore === 'cognito') {
    for (const [variable, value] of [
      ['COGNITO_USER_POOL_ID', cognito.userPoolId],
      ['COGNITO_CLIENT_ID', cognito.clientId],
      ['AWS_REGION', cognito.region],
    ] as const) {
      if (!value) throw new ConfigError(variable, 'must be set when IDENTITY_STORE=cognito');
    }
  }
  return cognito;
}

/** SESSION_COOKIE_NAME: a cookie name as RFC 6265 allows it. */
export function sessionCookieName(env: Env): string {
  const name = read(env, 'SESSION_COOKIE_NAME') ?? 'id_token';
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
    throw new ConfigError('SESSION_COOKIE_NAME', `is not a valid cookie name: "${name}"`);
  }
  return name;
}
