import { parseConfig } from './app-config';
import { configurationWarnings, describeConfiguration } from './config-summary';

describe(describeConfiguration.name, () => {
  it('summarises the defaults in one line: port, database and its migrations, identity store, Redis and SMTP off, DNS resolvers', () => {
    expect(describeConfiguration(parseConfig({}), [])).toBe(
      'Listening on port 3000; NODE_ENV development; database sqlite data/tenant-service.sqlite (migrations up to date); ' +
        'identity store local (table users); Redis off (rate-limit counters in memory); SMTP off (e-mails are logged); ' +
        "DNS resolvers the system's; public address derived from each request's Host and X-Forwarded-Proto headers " +
        '(PUBLIC_BASE_URL not set)',
    );
  });

  it('names PUBLIC_BASE_URL, which links, redirect URIs and ACS URLs start with', () => {
    expect(describeConfiguration(parseConfig({ PUBLIC_BASE_URL: 'https://tenants.example.com/' }))).toMatch(
      /; public address https:\/\/tenants\.example\.com \(PUBLIC_BASE_URL\)$/,
    );
  });

  it('says how many migrations this start applied, or that it ran none (DB_MIGRATIONS_RUN=false)', () => {
    expect(describeConfiguration(parseConfig({}), ['CreateTenants1', 'CreateUsers2'])).toContain(
      'database sqlite data/tenant-service.sqlite (2 migration(s) applied at start-up);',
    );
    expect(describeConfiguration(parseConfig({ DB_MIGRATIONS_RUN: 'false' }))).toContain(
      '(migrations not run at start-up);',
    );
  });

  it('names dialect and host, Cognito pool, Redis (host, database, key prefix), SMTP and DNS resolvers; never a password or user', () => {
    const summary = describeConfiguration(
      parseConfig({
        PORT: '8080',
        NODE_ENV: 'production',
        DATABASE_URL: 'mysql://tenants:db-secret@db.internal:3306/tenants?ssl=true',
        DB_MIGRATIONS_RUN: 'false',
        IDENTITY_STORE: 'cognito',
        COGNITO_USER_POOL_ID: 'eu-west-1_pool',
        COGNITO_CLIENT_ID: 'client',
        AWS_REGION: 'eu-west-1',
        REDIS_URL: 'redis://:redis-secret@redis.internal:6379/2',
        REDIS_KEY_PREFIX: 'tenants-prod:',
        SMTP_URL: 'smtps://mailer:smtp-secret@smtp.internal:465',
        DNS_RESOLVER_SERVERS: '10.0.0.2,[fd00::53]:5353',
      }),
    );
    expect(summary).toBe(
      'Listening on port 8080; NODE_ENV production; database mysql at db.internal:3306/tenants (migrations not run at start-up); ' +
        'identity store cognito (pool eu-west-1_pool); Redis on (redis.internal:6379, db 2; key prefix tenants-prod:); ' +
        'SMTP on (smtp.internal:465); DNS resolvers 10.0.0.2,[fd00::53]:5353; public address derived from each ' +
        "request's Host and X-Forwarded-Proto headers (PUBLIC_BASE_URL not set)",
    );
    expect(summary).not.toMatch(/secret|mailer|tenants:/);
  });

  it("a Redis URL without a database is database 0; a Redis Cluster's nodes and key prefix", () => {
    expect(describeConfiguration(parseConfig({ REDIS_URL: 'redis://redis.internal:6379' }))).toContain(
      'Redis on (redis.internal:6379, db 0; key prefix tenant-service:);',
    );
    expect(describeConfiguration(parseConfig({ REDIS_CLUSTER_NODES: 'redis-a:6379,redis-b:6379' }))).toContain(
      'Redis Cluster on (redis-a:6379,redis-b:6379; key prefix tenant-service:);',
    );
  });

  it('says what the start saw of Redis: answering, or unreachable with the error and counters in memory', () => {
    const config = parseConfig({ REDIS_URL: 'redis://redis.internal:6379' });
    expect(describeConfiguration(config, [], { reachable: true })).toContain(
      'Redis on (redis.internal:6379, db 0; key prefix tenant-service:; answering);',
    );
    expect(
      describeConfiguration(config, [], { reachable: false, reason: 'connect ECONNREFUSED 10.0.0.7:6379' }),
    ).toContain(
      'Redis unreachable (redis.internal:6379, db 0; key prefix tenant-service:; connect ECONNREFUSED 10.0.0.7:6379; ' +
        "rate-limit counters in this instance's memory until it answers);",
    );
    const cluster = parseConfig({ REDIS_CLUSTER_NODES: 'redis-a:6379' });
    expect(describeConfiguration(cluster, [], { reachable: false, reason: 'still connecting (connecting)' })).toContain(
      'Redis Cluster unreachable (redis-a:6379; key prefix tenant-service:; still connecting (connecting);',
    );
    expect(describeConfiguration(parseConfig({}), [], null)).toContain('Redis off (rate-limit counters in memory);');
  });

  it('says that test mode is on, never with its key', () => {
    const summary = describeConfiguration(parseConfig({ TEST_MODE: 'true', TEST_MODE_KEY: 'qa-key-0123456789' }));
    expect(summary).toMatch(/; TEST MODE on \(routes under \/api\/test\/\)$/);
    expect(summary).not.toContain('qa-key');
  });
});

describe(configurationWarnings.name, () => {
  const ssoKey = 'a'.repeat(64);
  const production = {
    NODE_ENV: 'production',
    AUTH_JWT_SECRET: 'k'.repeat(32),
    SSO_SECRETS_KEY: ssoKey,
    DATABASE_URL: 'mysql://tenants@db.internal:3306/tenants',
    REDIS_URL: 'redis://redis.internal:6379',
    PUBLIC_BASE_URL: 'https://tenants.example.com',
  };

  it('warns that production without SMTP_URL sends no invitation e-mail', () => {
    expect(configurationWarnings(parseConfig(production))).toEqual([
      'SMTP_URL is not set: invitation e-mails are written to the log (tokens masked), not sent',
    ]);
    expect(configurationWarnings(parseConfig({ ...production, SMTP_URL: 'smtp://smtp.internal:587' }))).toEqual([]);
  });

  it('outside production, a missing SMTP_URL is the development default: only the keys are warned about', () => {
    expect(configurationWarnings(parseConfig({}))).toEqual([
      'AUTH_JWT_SECRET is not set: using the development key. Never do this in production.',
      'SSO_SECRETS_KEY is not set: client secrets are encrypted with the development key. Never do this in production.',
    ]);
    expect(configurationWarnings(parseConfig({ AUTH_JWT_SECRET: 'k'.repeat(32), SSO_SECRETS_KEY: ssoKey }))).toEqual(
      [],
    );
  });

  it('production on SQLite, or without Redis: one line each, naming the setting', () => {
    const { DATABASE_URL: _, REDIS_URL: __, ...bare } = { ...production, SMTP_URL: 'smtp://smtp.internal:587' };
    expect(configurationWarnings(parseConfig(bare))).toEqual([
      'DATABASE_URL is not set to MySQL/MariaDB: NODE_ENV=production on the SQLite file data/tenant-service.sqlite, ' +
        'which no other instance shares (docs/deploying.md)',
      "REDIS_URL is not set: NODE_ENV=production with rate-limit counters in this instance's memory, " +
        'shared by no other instance and lost at a restart',
    ]);
    expect(configurationWarnings(parseConfig({ ...bare, REDIS_CLUSTER_NODES: 'redis-a:6379' }))).toHaveLength(1);
    // Outside production both are the development defaults.
    expect(configurationWarnings(parseConfig({ ...bare, NODE_ENV: 'development' }))).toEqual([]);
  });

  it('production without PUBLIC_BASE_URL: one line, that single sign-on does not start', () => {
    const { PUBLIC_BASE_URL: _, ...withoutBase } = { ...production, SMTP_URL: 'smtp://smtp.internal:587' };
    expect(configurationWarnings(parseConfig(withoutBase))).toEqual([
      "PUBLIC_BASE_URL is not set: NODE_ENV=production makes links from each request's Host header, and single " +
        'sign-on does not start (its starts answer 503 SSO_NOT_CONFIGURED) until it names this service',
    ]);
  });

  it('production without SSO_SECRETS_KEY starts, warning that single sign-on is off', () => {
    const { SSO_SECRETS_KEY: _, ...withoutKey } = production;
    expect(configurationWarnings(parseConfig({ ...withoutKey, SMTP_URL: 'smtp://smtp.internal:587' }))).toEqual([
      'SSO_SECRETS_KEY is not set: single sign-on is off (its routes answer 503 SSO_NOT_CONFIGURED)',
    ]);
  });
});
