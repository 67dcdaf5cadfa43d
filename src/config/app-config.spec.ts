import { parseConfig } from './app-config';
import { jwtSecretWarning } from './config-summary';
import { DEFAULT_SQLITE_FILE } from './database-config';

describe(parseConfig.name, () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      database: { type: 'sqlite', database: DEFAULT_SQLITE_FILE },
      identityStore: 'local',
      sessionCookieName: 'id_token',
      mailFrom: 'no-reply@localhost',
      inviteRateLimit: 10,
      redisKeyPrefix: 'tenant-service:',
      inviteRateWindowSeconds: 3600,
      bulkInviteMaxRows: 100,
      migrationsRun: true,
      usingDevelopmentJwtSecret: true,
      cognito: { superAdminGroup: 'super_admin' },
      invitationPage: true,
    });
    expect(config.smtpUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.allowedHosts).toBeUndefined();
  });

  it.each([
    ['sqlite::memory:', { type: 'sqlite', database: ':memory:' }],
    ['sqlite:/var/data/x.sqlite', { type: 'sqlite', database: '/var/data/x.sqlite' }],
    ['sqlite:data/x.sqlite', { type: 'sqlite', database: 'data/x.sqlite' }],
    ['mysql://u:p@db:3306/tenants', { type: 'mysql', url: 'mysql://u:p@db:3306/tenants' }],
  ])('reads DATABASE_URL %s', (url, expected) => {
    expect(parseConfig({ DATABASE_URL: url }).database).toEqual(expected);
  });

  it.each([
    ['PORT', 'http'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'postgres://db/x'],
    ['DATABASE_URL', 'mysql://host-only'],
    ['IDENTITY_STORE', 'ldap'],
    ['SMTP_URL', 'http://mail'],
    ['REDIS_URL', 'not a url'],
    ['REDIS_KEY_PREFIX', 'has spaces'],
    ['REQUEST_TIMEOUT_MS', '10'],
    ['INVITE_RATE_LIMIT', '0'],
    ['INVITE_RATE_WINDOW_SECONDS', '1h'],
    ['BULK_INVITE_MAX_ROWS', '0'],
    ['BULK_INVITE_MAX_ROWS', '1001'],
    ['DB_MIGRATIONS_RUN', 'maybe'],
    ['INVITATION_PAGE', 'sometimes'],
    ['TRUST_PROXY', 'everyone'],
    ['PUBLIC_BASE_URL', 'ftp://x'],
    ['MAIL_FROM', 'nobody'],
    ['SESSION_COOKIE_NAME', 'a b'],
    ['COGNITO_ENDPOINT', 'nope'],
    ['OUTBOX_POLL_INTERVAL_MS', '0'],
    ['OUTBOX_MAX_ATTEMPTS', 'many'],
    ['OUTBOX_RETRY_BASE_MS', '-1'],
    ['OUTBOX_RETRY_MAX_MS', '1.5'],
  ])('stops on a malformed %s with a message naming it', (variable, value) => {
    expect(() => parseConfig({ [variable]: value })).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  describe('NODE_ENV: production, development or test, nothing else', () => {
    it.each(['production', 'development', 'test'])('takes %s', (nodeEnv) => {
      expect(parseConfig({ NODE_ENV: nodeEnv, AUTH_JWT_SECRET: 'k'.repeat(32) }).nodeEnv).toBe(nodeEnv);
    });

    it('is development when unset', () => {
      expect(parseConfig({}).nodeEnv).toBe('development');
    });

    // A misspelt production would otherwise start on the development key, as development.
    it.each(['Production', 'prod', 'PRODUCTION', 'staging'])(
      'refuses %s in one line naming the variable, before AUTH_JWT_SECRET is looked at',
      (nodeEnv) => {
        expect(() => parseConfig({ NODE_ENV: nodeEnv })).toThrow(
          new Error(`Invalid configuration: NODE_ENV must be one of production, development, test, got "${nodeEnv}"`),
        );
      },
    );
  });

  it('requires AUTH_JWT_SECRET in production', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_JWT_SECRET must be set/);
    const secret = 's3cret'.repeat(6);
    expect(parseConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: secret }).usingDevelopmentJwtSecret).toBe(false);
  });

  describe('an AUTH_JWT_SECRET shorter than 32 bytes (an HS256 key)', () => {
    it('refuses it under NODE_ENV=production, in one line naming the variable', () => {
      expect(() => parseConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'short' })).toThrow(
        new Error(
          'Invalid configuration: AUTH_JWT_SECRET must be at least 32 bytes when NODE_ENV=production (an HS256 key), got 5',
        ),
      );
      // Bytes, not characters: 16 two-byte characters are 32 bytes.
      expect(parseConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'é'.repeat(16) }).authJwtSecret).toBe(
        'é'.repeat(16),
      );
      expect(() => parseConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'k'.repeat(31) })).toThrow(/got 31$/);
    });

    it('takes it elsewhere, with a warning; and in cognito mode, where it is not used, says nothing', () => {
      const development = parseConfig({ AUTH_JWT_SECRET: 'short' });
      expect(development.authJwtSecret).toBe('short');
      expect(jwtSecretWarning(development)).toBe(
        'AUTH_JWT_SECRET is 5 bytes, under the 32 of an HS256 key: NODE_ENV=production refuses it.',
      );
      expect(jwtSecretWarning(parseConfig({ AUTH_JWT_SECRET: 'k'.repeat(32) }))).toBeNull();
      expect(jwtSecretWarning(parseConfig({}))).toMatch(/^AUTH_JWT_SECRET is not set: using the development key/);
      const cognito = { IDENTITY_STORE: 'cognito', COGNITO_USER_POOL_ID: 'p', COGNITO_CLIENT_ID: 'c', AWS_REGION: 'r' };
      expect(
        jwtSecretWarning(parseConfig({ ...cognito, NODE_ENV: 'production', AUTH_JWT_SECRET: 'short' })),
      ).toBeNull();
    });
  });

  it('test mode: off by default; on only with a key of 16+ characters, and never in production', () => {
    expect(parseConfig({}).testMode).toEqual({ enabled: false });
    expect(parseConfig({ TEST_MODE: 'true', TEST_MODE_KEY: 'k'.repeat(16) }).testMode).toEqual({
      enabled: true,
      key: 'k'.repeat(16),
    });
    expect(() => parseConfig({ TEST_MODE: 'true' })).toThrow(/^Invalid configuration: TEST_MODE_KEY must be set/);
    expect(() => parseConfig({ TEST_MODE: 'true', TEST_MODE_KEY: 'short' })).toThrow(/TEST_MODE_KEY must be set/);
    expect(() =>
      parseConfig({
        TEST_MODE: 'true',
        TEST_MODE_KEY: 'k'.repeat(16),
        NODE_ENV: 'production',
        AUTH_JWT_SECRET: 'k'.repeat(32),
      }),
    ).toThrow('Invalid configuration: TEST_MODE must not be true when NODE_ENV=production');
  });

  it('requires the pool, client and region in cognito mode', () => {
    expect(() => parseConfig({ IDENTITY_STORE: 'cognito' })).toThrow(/COGNITO_USER_POOL_ID must be set/);
    const config = parseConfig({
      IDENTITY_STORE: 'cognito',
      COGNITO_USER_POOL_ID: 'pool',
      COGNITO_CLIENT_ID: 'client',
      AWS_REGION: 'eu-west-1',
      COGNITO_ENDPOINT: 'http://127.0.0.1:9229/',
    });
    expect(config.cognito).toEqual({
      userPoolId: 'pool',
      clientId: 'client',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9229',
      superAdminGroup: 'super_admin',
    });
  });

  it('reads lists, proxy settings and the public base URL', () => {
    const config = parseConfig({
      ALLOWED_HOSTS: 'API.example.com, localhost:3000',
      ALLOWED_ORIGINS: 'https://portal.example.com',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      PUBLIC_BASE_URL: 'https://portal.example.com/',
    });
    expect(config.allowedHosts).toEqual(['api.example.com', 'localhost:3000']);
    expect(config.allowedOrigins).toEqual(['https://portal.example.com']);
    expect(config.trustProxy).toBe('loopback, 10.0.0.0/8');
    expect(config.publicBaseUrl).toBe('https://portal.example.com');
    expect(parseConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('reads the outbox worker settings, with defaults', () => {
    expect(parseConfig({}).outbox).toEqual({
      pollIntervalMs: 1_000,
      maxAttempts: 15,
      retryBaseMs: 2_000,
      retryMaxMs: 600_000,
    });
    expect(
      parseConfig({
        OUTBOX_POLL_INTERVAL_MS: '50',
        OUTBOX_MAX_ATTEMPTS: '3',
        OUTBOX_RETRY_BASE_MS: '100',
        OUTBOX_RETRY_MAX_MS: '400',
      }).outbox,
    ).toEqual({ pollIntervalMs: 50, maxAttempts: 3, retryBaseMs: 100, retryMaxMs: 400 });
    expect(() => parseConfig({ OUTBOX_RETRY_BASE_MS: '5000', OUTBOX_RETRY_MAX_MS: '1000' })).toThrow(
      /^Invalid configuration: OUTBOX_RETRY_MAX_MS must not be less than OUTBOX_RETRY_BASE_MS/,
    );
  });

  describe('clusters (docs/deploying.md, "Clustered MySQL and Redis")', () => {
    it('DATABASE_URL may list several hosts: the first names the URL, all of them (with ports) the fail-over order', () => {
      expect(parseConfig({ DATABASE_URL: 'mysql://u:p@h1:3306,h2,10.0.0.3:3307/db' }).database).toEqual({
        type: 'mysql',
        url: 'mysql://u:p@h1:3306/db',
        hosts: ['h1:3306', 'h2:3306', '10.0.0.3:3307'],
      });
      expect(() => parseConfig({ DATABASE_URL: 'mysql://u:p@h1:3306, h2 x/db' })).toThrow(
        /^Invalid configuration: DATABASE_URL must list its hosts as host:port,host:port/,
      );
    });

    it('REDIS_CLUSTER_NODES lists the seed nodes; with REDIS_URL it is a start-up error naming both', () => {
      expect(parseConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7101, redis-b:7102' }).redisClusterNodes).toEqual([
        { host: '127.0.0.1', port: 7101 },
        { host: 'redis-b', port: 7102 },
      ]);
      expect(parseConfig({}).redisClusterNodes).toBeUndefined();
      expect(() => parseConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7101', REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
        /^Invalid configuration: REDIS_CLUSTER_NODES and REDIS_URL are both set/,
      );
      expect(() => parseConfig({ REDIS_CLUSTER_NODES: '127.0.0.1' })).toThrow(
        'Invalid configuration: REDIS_CLUSTER_NODES must list host:port pairs separated by commas, got "127.0.0.1"',
      );
    });
  });

  it('reads the log level and the shutdown timings, with defaults per NODE_ENV', () => {
    expect(parseConfig({})).toMatchObject({ logLevel: 'info', shutdown: { drainMs: 0, graceMs: 25_000 } });
    expect(parseConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
    expect(parseConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'k'.repeat(32) }).shutdown).toEqual({
      drainMs: 5_000,
      graceMs: 25_000,
    });
    expect(
      parseConfig({ LOG_LEVEL: 'debug', SHUTDOWN_DRAIN_SECONDS: '2', SHUTDOWN_GRACE_SECONDS: '10' }),
    ).toMatchObject({
      logLevel: 'debug',
      shutdown: { drainMs: 2_000, graceMs: 10_000 },
    });
    expect(() => parseConfig({ LOG_LEVEL: 'verbose' })).toThrow(/^Invalid configuration: LOG_LEVEL /);
    expect(() => parseConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(
      /^Invalid configuration: SHUTDOWN_DRAIN_SECONDS /,
    );
    expect(() => parseConfig({ SHUTDOWN_DRAIN_SECONDS: '30', SHUTDOWN_GRACE_SECONDS: '30' })).toThrow(
      /^Invalid configuration: SHUTDOWN_GRACE_SECONDS must be more than SHUTDOWN_DRAIN_SECONDS/,
    );
  });

  it('serves the invitation page unless INVITATION_PAGE=false', () => {
    expect(parseConfig({ INVITATION_PAGE: 'false' }).invitationPage).toBe(false);
    expect(parseConfig({ INVITATION_PAGE: 'true' }).invitationPage).toBe(true);
  });

  it('takes SIGN_IN_URL only with PUBLIC_BASE_URL or ALLOWED_HOSTS: the return address must be on an allowed host', () => {
    expect(parseConfig({}).signInUrl).toBeUndefined();
    expect(
      parseConfig({ SIGN_IN_URL: 'https://id.example.com/sign-in', PUBLIC_BASE_URL: 'https://invites.example.com' })
        .signInUrl,
    ).toBe('https://id.example.com/sign-in');
    expect(
      parseConfig({ SIGN_IN_URL: 'https://id.example.com/sign-in', ALLOWED_HOSTS: 'invites.example.com' }).signInUrl,
    ).toBeDefined();
    expect(() => parseConfig({ SIGN_IN_URL: 'https://id.example.com/sign-in' })).toThrow(
      /^Invalid configuration: SIGN_IN_URL needs PUBLIC_BASE_URL or ALLOWED_HOSTS/,
    );
    expect(() => parseConfig({ SIGN_IN_URL: 'javascript:alert(1)', PUBLIC_BASE_URL: 'https://x.example' })).toThrow(
      /^Invalid configuration: SIGN_IN_URL must use http or https/,
    );
  });

  it('treats empty values as unset', () => {
    expect(parseConfig({ PORT: '', SMTP_URL: '  ' })).toMatchObject({ port: 3000, smtpUrl: undefined });
  });

  it('ROLES_PER_ORG and ROLES_PER_MEMBER default to 25 and 10, and are bounded', () => {
    expect(parseConfig({}).roles).toEqual({ perOrg: 25, perMember: 10 });
    expect(parseConfig({ ROLES_PER_ORG: '3', ROLES_PER_MEMBER: '2' }).roles).toEqual({ perOrg: 3, perMember: 2 });
    expect(() => parseConfig({ ROLES_PER_ORG: '0' })).toThrow(/ROLES_PER_ORG/);
    expect(() => parseConfig({ ROLES_PER_MEMBER: '101' })).toThrow(/ROLES_PER_MEMBER/);
  });
});
