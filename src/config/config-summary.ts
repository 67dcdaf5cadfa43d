import { AppConfig, DatabaseConfig, jwtSecretWarning, ssoSecretsKeyWarning } from './app-config';

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

function describeRedis(config: AppConfig): string {
  const prefix = `key prefix ${config.redisKeyPrefix}`;
  if (config.redisClusterNodes) {
    return `Cluster on (${config.redisClusterNodes.map(({ host, port }) => `${host}:${port}`).join(',')}; ${prefix})`;
  }
  if (!config.redisUrl) return 'off (rate-limit counters in memory)';
  // redis://host:port/2 selects database 2 (ioredis reads the path's first segment); without one, database 0.
  const database = new URL(config.redisUrl).pathname.split('/')[1] || '0';
  return `on (${hostOf(config.redisUrl)}, db ${database}; ${prefix})`;
}

/** Whether this start applied migrations: known once the database is open (undefined when none were run). */
function describeMigrations(config: AppConfig, appliedMigrations?: string[]): string {
  if (!config.migrationsRun) return 'migrations not run at start-up';
  if (!appliedMigrations?.length) return 'migrations up to date';
  return `${appliedMigrations.length} migration(s) applied at start-up`;
}

/**
 * The one start-up line that says how this instance is configured: database (and whether this start
 * migrated it), identity store, Redis, SMTP, DNS resolvers and port. Built from the parsed
 * configuration, never from secrets.
 */
export function describeConfiguration(config: AppConfig, appliedMigrations?: string[]): string {
  const identity =
    config.identityStore === 'cognito' ? `cognito (pool ${config.cognito.userPoolId})` : 'local (table users)';
  const resolvers = config.domains.resolverServers;
  return [
    `Listening on port ${config.port}`,
    `NODE_ENV ${config.nodeEnv}`,
    `database ${describeDatabase(config.database)} (${describeMigrations(config, appliedMigrations)})`,
    `identity store ${identity}`,
    `Redis ${describeRedis(config)}`,
    `SMTP ${config.smtpUrl ? `on (${hostOf(config.smtpUrl)})` : 'off (e-mails are logged)'}`,
    `DNS resolvers ${resolvers.length ? resolvers.join(',') : "the system's"}`,
    ...(config.testMode.enabled ? ['TEST MODE on (routes under /api/test/)'] : []),
  ].join('; ');
}

/** What a start must warn about: the session key, the SSO secrets key, and invitation e-mails that production would not send. */
export function configurationWarnings(config: AppConfig): string[] {
  const warnings = [jwtSecretWarning(config), ssoSecretsKeyWarning(config)];
  if (config.nodeEnv === 'production' && !config.smtpUrl)
    warnings.push('SMTP_URL is not set: invitation e-mails are written to the log (tokens masked), not sent');
  return warnings.filter((warning) => warning !== null);
}
