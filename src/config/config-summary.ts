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
  const at = database.hosts ? database.hosts.join(',') : hostOf(database.url);
  return `mysql at ${at}${pathname.length > 1 ? pathname : ''}`;
}

function describeRedis(config: AppConfig): string {
  if (config.redisClusterNodes) {
    return `Cluster on (${config.redisClusterNodes.map(({ host, port }) => `${host}:${port}`).join(',')})`;
  }
  return config.redisUrl ? `on (${hostOf(config.redisUrl)})` : 'off (rate-limit counters in memory)';
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
    `Redis ${describeRedis(config)}`,
    `SMTP ${config.smtpUrl ? `on (${hostOf(config.smtpUrl)})` : 'off (e-mails are logged)'}`,
    ...(config.testMode.enabled ? ['TEST MODE on (routes under /api/test/)'] : []),
  ].join('; ');
}
