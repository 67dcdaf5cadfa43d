/** The start-up summary: the one line that says how this instance is configured, and the warnings a start logs. */

import { AppConfig } from './app-config';
import { DatabaseConfig } from './database-config';
import { MIN_JWT_SECRET_BYTES } from './identity-config';
import { redisConfigured, RedisSeen } from './redis-client';

/** Where a URL points, without its user, password or query: safe to log. */
function hostOf(url: string): string {
  const { hostname, port } = new URL(url);
  return port ? `${hostname}:${port}` : hostname;
}

/** The database as operators name it: dialect and host (never the credentials), or the SQLite file. */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.type === 'sqlite') return `sqlite ${database.database}`;
  const { pathname } = new URL(database.url);
  const at = database.hosts ? database.hosts.join(',') : hostOf(database.url);
  return `mysql at ${at}${pathname.length > 1 ? pathname : ''}`;
}

/**
 * Redis as configured and, once the start has tried it (`seen`), as found: `on (…; answering)`, or
 * `unreachable (…; the error; …)` while the counters are in this instance's memory.
 */
function describeRedis(config: AppConfig, seen?: RedisSeen | null): string {
  const prefix = `key prefix ${config.redisKeyPrefix}`;
  let kind = '';
  let where: string;
  if (config.redisClusterNodes) {
    kind = 'Cluster ';
    where = `${config.redisClusterNodes.map(({ host, port }) => `${host}:${port}`).join(',')}; ${prefix}`;
  } else if (config.redisUrl) {
    // redis://host:port/2 selects database 2 (ioredis reads the path's first segment); without one, database 0.
    const database = new URL(config.redisUrl).pathname.split('/')[1] || '0';
    where = `${hostOf(config.redisUrl)}, db ${database}; ${prefix}`;
  } else return 'off (rate-limit counters in memory)';
  if (!seen) return `${kind}on (${where})`;
  if (seen.reachable) return `${kind}on (${where}; answering)`;
  return `${kind}unreachable (${where}; ${seen.reason}; rate-limit counters in this instance's memory until it answers)`;
}

/** Whether this start applied migrations: known once the database is open (undefined when none were run). */
function describeMigrations(config: AppConfig, appliedMigrations?: string[]): string {
  if (!config.migrationsRun) return 'migrations not run at start-up';
  if (!appliedMigrations?.length) return 'migrations up to date';
  return `${appliedMigrations.length} migration(s) applied at start-up`;
}

/** Where this service's own address comes from: PUBLIC_BASE_URL, or each request's headers. */
function describePublicAddress(config: AppConfig): string {
  return config.publicBaseUrl
    ? `${config.publicBaseUrl} (PUBLIC_BASE_URL)`
    : "derived from each request's Host and X-Forwarded-Proto headers (PUBLIC_BASE_URL not set)";
}

/**
 * The one start-up line that says how this instance is configured: database (and whether this start
 * migrated it), identity store, Redis (and whether it answered), SMTP, DNS resolvers, port, and the
 * address that links, redirect URIs and ACS URLs start with.
 * Built from the parsed configuration and what the start saw, never from secrets.
 */
export function describeConfiguration(
  config: AppConfig,
  appliedMigrations?: string[],
  redisSeen?: RedisSeen | null,
): string {
  const identity =
    config.identityStore === 'cognito' ? `cognito (pool ${config.cognito.userPoolId})` : 'local (table users)';
  const resolvers = config.domains.resolverServers;
  return [
    `Listening on port ${config.port}`,
    `NODE_ENV ${config.nodeEnv}`,
    `database ${describeDatabase(config.database)} (${describeMigrations(config, appliedMigrations)})`,
    `identity store ${identity}`,
    `Redis ${describeRedis(config, redisSeen)}`,
    `SMTP ${config.smtpUrl ? `on (${hostOf(config.smtpUrl)})` : 'off (e-mails are logged)'}`,
    `DNS resolvers ${resolvers.length ? resolvers.join(',') : "the system's"}`,
    `public address ${describePublicAddress(config)}`,
    ...(config.testMode.enabled ? ['TEST MODE on (routes under /api/test/)'] : []),
  ].join('; ');
}

/** The start-up warning about the local-mode session key, if any: none set, or one too short for production. */
export function jwtSecretWarning(config: AppConfig): string | null {
  if (config.identityStore !== 'local') return null;
  if (config.usingDevelopmentJwtSecret)
    return 'AUTH_JWT_SECRET is not set: using the development key. Never do this in production.';
  const bytes = Buffer.byteLength(config.authJwtSecret);
  if (bytes >= MIN_JWT_SECRET_BYTES) return null;
  return `AUTH_JWT_SECRET is ${bytes} bytes, under the ${MIN_JWT_SECRET_BYTES} of an HS256 key: NODE_ENV=production refuses it.`;
}

/** The start-up warning about the SSO secrets key, if any. */
function ssoSecretsKeyWarning(config: AppConfig): string | null {
  if (config.sso.usingDevelopmentSecretsKey)
    return 'SSO_SECRETS_KEY is not set: client secrets are encrypted with the development key. Never do this in production.';
  if (config.sso.secretsKey === null)
    return 'SSO_SECRETS_KEY is not set: single sign-on is off (its routes answer 503 SSO_NOT_CONFIGURED)';
  return null;
}

/**
 * What a start must warn about, one line each naming its setting: the session key, the SSO secrets
 * key; and, in production, an address of its own not set, invitation e-mails it would not send, the
 * SQLite file, counters without Redis.
 */
export function configurationWarnings(config: AppConfig): string[] {
  const warnings = [jwtSecretWarning(config), ssoSecretsKeyWarning(config)];
  if (config.nodeEnv === 'production' && !config.publicBaseUrl)
    warnings.push(
      "PUBLIC_BASE_URL is not set: NODE_ENV=production makes links from each request's Host header, and single " +
        'sign-on does not start (its starts answer 503 SSO_NOT_CONFIGURED) until it names this service',
    );
  if (config.nodeEnv === 'production' && !config.smtpUrl)
    warnings.push('SMTP_URL is not set: invitation e-mails are written to the log (tokens masked), not sent');
  if (config.nodeEnv === 'production' && config.database.type === 'sqlite')
    warnings.push(
      `DATABASE_URL is not set to MySQL/MariaDB: NODE_ENV=production on the SQLite file ${config.database.database}, ` +
        'which no other instance shares (docs/deploying.md)',
    );
  if (config.nodeEnv === 'production' && !redisConfigured(config))
    warnings.push(
      "REDIS_URL is not set: NODE_ENV=production with rate-limit counters in this instance's memory, " +
        'shared by no other instance and lost at a restart',
    );
  return warnings.filter((warning) => warning !== null);
}
