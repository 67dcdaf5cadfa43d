import { AppConfig, DatabaseConfig } from './app-config';

/** Where a URL points, without its user, password or query: safe to log. */
function hostOf(url: string): string {
  const { hostname, port } = new URL(url);
  return port ? `${hostname}:${port}` : hostname;
}

/** The database as operators name it: dialect and host (never the credentials), or the SQLite file. */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.type === 'sqlite') return `sqlite ${database.database}`;
  const { pathname } = new URL(database.url);
  return `mysql at ${hostOf(database.url)}${pathname.length > 1 ? pathname : ''}`;
}

/**
 * The one start-up line that says how this instance is configured: database, identity store,
 * Redis, SMTP and port. Built from the parsed configuration, never from secrets.
 */
export function describeConfiguration(config: AppConfig): string {
  const identity =
    config.identityStore === 'cognito' ? `cognito (pool ${config.cognito.userPoolId})` : 'local (table users)';
  return [
    `Listening on port ${config.port}`,
    `NODE_ENV ${config.nodeEnv}`,
    `database ${describeDatabase(config.database)}${config.migrationsRun ? '' : ' (migrations not run at start-up)'}`,
    `identity store ${identity}`,
    `Redis ${config.redisUrl ? `on (${hostOf(config.redisUrl)})` : 'off (rate-limit counters in memory)'}`,
    `SMTP ${config.smtpUrl ? `on (${hostOf(config.smtpUrl)})` : 'off (e-mails are logged)'}`,
    ...(config.testMode.enabled ? ['TEST MODE on (routes under /api/test/)'] : []),
  ].join('; ');
}
