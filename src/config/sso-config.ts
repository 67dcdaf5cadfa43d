/** Single sign-on's settings (docs/sso.md). */

import { acceptedReturnTo } from '../common/return-to';
import { boolean, ConfigError, Env, integer, list, NodeEnv, read, url } from './env-values';

/** Single sign-on (docs/sso.md). */
export interface SsoConfig {
  /**
   * The AES-256-GCM key that the connections' client secrets are written with (SSO_SECRETS_KEY's
   * first, 32 bytes); null under NODE_ENV=production without one: the SSO routes then refuse with
   * SSO_NOT_CONFIGURED, the rest serves.
   */
  secretsKey: Buffer | null;
  /** Every key of SSO_SECRETS_KEY, the first first: a secret is read with any (a rotation's `new,old`). */
  secretsKeys: Buffer[];
  /** True when no SSO_SECRETS_KEY was given outside production and the development key is in use. */
  usingDevelopmentSecretsKey: boolean;
  /** Connections an organisation may hold (SSO_CONNECTION_LIMIT beyond). */
  connectionsPerOrg: number;
  /** Production, unless SSO_ALLOW_PRIVATE=true: refuse fetching from loopback, link-local or private addresses. */
  refusePrivateAddresses: boolean;
  /** Production: the issuer, its discovery document's endpoints and its keys are fetched over https only. */
  httpsOnly: boolean;
  /** The bound on one fetch from an identity provider (discovery, keys, the code exchange). */
  httpTimeoutMs: number;
  /** How far an ID token's exp and iat may be off this server's clock. */
  clockSkewSeconds: number;
  /** Origins that returnTo may name beside this service's own (SSO_RETURN_ORIGINS). */
  returnOrigins: string[];
  /** Where a sign-in without returnTo lands (SSO_DEFAULT_RETURN_TO); null: this service's signed-in page. */
  defaultReturnTo: string | null;
  /** POST /api/sso/discover calls per client address a minute (429 beyond), counted where the invite limit is. */
  discoverRateLimit: number;
}

/** The key of client secrets outside production when SSO_SECRETS_KEY is unset: known to all, so never for real secrets. */
export const DEVELOPMENT_SSO_SECRETS_KEY = Buffer.from('development-only-sso-key-change!', 'utf8');

/** One key of SSO_SECRETS_KEY: 32 bytes, as 64 hexadecimal digits or in base64. */
function secretsKeyOf(raw: string, position: number, count: number): Buffer {
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) key = Buffer.from(raw, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=$/.test(raw)) key = Buffer.from(raw, 'base64');
  if (key?.length !== 32)
    throw new ConfigError(
      'SSO_SECRETS_KEY',
      `${count > 1 ? `key ${position + 1} of ${count}: ` : ''}must be 32 bytes as 64 hexadecimal digits or in ` +
        'base64 (e.g. $(openssl rand -base64 32)), or such keys separated by commas (new,old)',
    );
  return key;
}

/** SSO_SECRETS_KEY: one key, or `new,old`: secrets are written with the first and read with any. */
function ssoSecretsKeys(
  env: Env,
  nodeEnv: NodeEnv,
): Pick<SsoConfig, 'secretsKey' | 'secretsKeys' | 'usingDevelopmentSecretsKey'> {
  const raw = list(env, 'SSO_SECRETS_KEY');
  if (raw === undefined)
    return nodeEnv === 'production'
      ? { secretsKey: null, secretsKeys: [], usingDevelopmentSecretsKey: false }
      : {
          secretsKey: DEVELOPMENT_SSO_SECRETS_KEY,
          secretsKeys: [DEVELOPMENT_SSO_SECRETS_KEY],
          usingDevelopmentSecretsKey: true,
        };
  const keys = raw.map((item, position) => secretsKeyOf(item, position, raw.length));
  return { secretsKey: keys[0], secretsKeys: keys, usingDevelopmentSecretsKey: false };
}

/** SSO_RETURN_ORIGINS: origins only (scheme, host, port), http or https. */
function returnOrigins(env: Env): string[] {
  return (list(env, 'SSO_RETURN_ORIGINS') ?? []).map((raw) => {
    const parsed = new URL(url({ SSO_RETURN_ORIGINS: raw }, 'SSO_RETURN_ORIGINS', ['http', 'https'])!);
    if (parsed.username || parsed.password || parsed.search || parsed.hash || parsed.pathname !== '/')
      throw new ConfigError('SSO_RETURN_ORIGINS', `must list origins only (scheme://host[:port]), got "${raw}"`);
    return parsed.origin;
  });
}

/**
 * SSO_DEFAULT_RETURN_TO: a path of this service, or an address on an origin of SSO_RETURN_ORIGINS
 * (or PUBLIC_BASE_URL's), by the returnTo rule.
 */
function defaultReturnTo(env: Env, origins: string[]): string | null {
  const raw = read(env, 'SSO_DEFAULT_RETURN_TO');
  if (raw === undefined) return null;
  const base = read(env, 'PUBLIC_BASE_URL');
  const own = base && URL.canParse(base) ? [new URL(base).origin] : [];
  if (acceptedReturnTo(raw, [...own, ...origins]) === null)
    throw new ConfigError(
      'SSO_DEFAULT_RETURN_TO',
      `must be a path of this service (/…) or an address on an origin of SSO_RETURN_ORIGINS, got "${raw}"`,
    );
  return raw;
}

export function ssoSettings(env: Env, nodeEnv: NodeEnv): SsoConfig {
  const production = nodeEnv === 'production';
  const allowPrivate = boolean(env, 'SSO_ALLOW_PRIVATE', false);
  const origins = returnOrigins(env);
  return {
    ...ssoSecretsKeys(env, nodeEnv),
    connectionsPerOrg: integer(env, 'SSO_CONNECTIONS_PER_ORG', 3, 1, 100),
    refusePrivateAddresses: production && !allowPrivate,
    httpsOnly: production,
    httpTimeoutMs: integer(env, 'SSO_HTTP_TIMEOUT_MS', 5_000, 100, 60_000),
    clockSkewSeconds: integer(env, 'SSO_CLOCK_SKEW_SECONDS', 120, 0, 600),
    returnOrigins: origins,
    defaultReturnTo: defaultReturnTo(env, origins),
    discoverRateLimit: integer(env, 'SSO_DISCOVER_RATE_LIMIT', 60, 1, 1_000_000),
  };
}
