import { DEFAULT_SQLITE_FILE, parseConfig } from './app-config';

describe(parseConfig.name, () => {
  it('gives the CONTRACT defaults for an empty environment', () => {
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

  it('requires AUTH_JWT_SECRET in production', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_JWT_SECRET must be set/);
    expect(parseConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: 's3cret' }).usingDevelopmentJwtSecret).toBe(false);
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
    expect(parseConfig({}).outbox).toEqual({ pollIntervalMs: 1_000, maxAttempts: 15, retryBaseMs: 2_000, retryMaxMs: 600_000 });
    expect(
      parseConfig({ OUTBOX_POLL_INTERVAL_MS: '50', OUTBOX_MAX_ATTEMPTS: '3', OUTBOX_RETRY_BASE_MS: '100', OUTBOX_RETRY_MAX_MS: '400' }).outbox,
    ).toEqual({ pollIntervalMs: 50, maxAttempts: 3, retryBaseMs: 100, retryMaxMs: 400 });
    expect(() => parseConfig({ OUTBOX_RETRY_BASE_MS: '5000', OUTBOX_RETRY_MAX_MS: '1000' })).toThrow(
      /^Invalid configuration: OUTBOX_RETRY_MAX_MS must not be less than OUTBOX_RETRY_BASE_MS/,
    );
  });

  it('reads the log level and the shutdown timings, with defaults per NODE_ENV', () => {
    expect(parseConfig({})).toMatchObject({ logLevel: 'info', shutdown: { drainMs: 0, graceMs: 25_000 } });
    expect(parseConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
    expect(parseConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: 's' }).shutdown).toEqual({ drainMs: 5_000, graceMs: 25_000 });
    expect(parseConfig({ LOG_LEVEL: 'debug', SHUTDOWN_DRAIN_SECONDS: '2', SHUTDOWN_GRACE_SECONDS: '10' })).toMatchObject({
      logLevel: 'debug',
      shutdown: { drainMs: 2_000, graceMs: 10_000 },
    });
    expect(() => parseConfig({ LOG_LEVEL: 'verbose' })).toThrow(/^Invalid configuration: LOG_LEVEL /);
    expect(() => parseConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(/^Invalid configuration: SHUTDOWN_DRAIN_SECONDS /);
    expect(() => parseConfig({ SHUTDOWN_DRAIN_SECONDS: '30', SHUTDOWN_GRACE_SECONDS: '30' })).toThrow(
      /^Invalid configuration: SHUTDOWN_GRACE_SECONDS must be more than SHUTDOWN_DRAIN_SECONDS/,
    );
  });

  it('serves the invitation page unless INVITATION_PAGE=false', () => {
    expect(parseConfig({ INVITATION_PAGE: 'false' }).invitationPage).toBe(false);
    expect(parseConfig({ INVITATION_PAGE: 'true' }).invitationPage).toBe(true);
  });

  it('treats empty values as unset', () => {
    expect(parseConfig({ PORT: '', SMTP_URL: '  ' })).toMatchObject({ port: 3000, smtpUrl: undefined });
  });
});
