import { parseConfig } from './app-config';
import { describeConfiguration } from './config-summary';

describe(describeConfiguration.name, () => {
  it('summarises the defaults in one line: port, database, identity store, Redis and SMTP off', () => {
    expect(describeConfiguration(parseConfig({}))).toBe(
      'Listening on port 3000; NODE_ENV development; database sqlite data/tenant-service.sqlite; identity store local (table users); ' +
        'Redis off (rate-limit counters in memory); SMTP off (e-mails are logged)',
    );
  });

  it('names dialect and host, the Cognito pool, Redis and SMTP hosts, and never a password or user', () => {
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
        SMTP_URL: 'smtps://mailer:smtp-secret@smtp.internal:465',
      }),
    );
    expect(summary).toBe(
      'Listening on port 8080; NODE_ENV production; database mysql at db.internal:3306/tenants (migrations not run at start-up); ' +
        'identity store cognito (pool eu-west-1_pool); Redis on (redis.internal:6379); SMTP on (smtp.internal:465)',
    );
    expect(summary).not.toMatch(/secret|mailer|tenants:/);
  });

  it('says that test mode is on, never with its key', () => {
    const summary = describeConfiguration(parseConfig({ TEST_MODE: 'true', TEST_MODE_KEY: 'qa-key-0123456789' }));
    expect(summary).toMatch(/; TEST MODE on \(routes under \/api\/test\/\)$/);
    expect(summary).not.toContain('qa-key');
  });
});
