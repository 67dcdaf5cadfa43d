import { spawnSync } from 'node:child_process';

/** CONTRACT "Operator CLI" is for the local store: in cognito mode it refuses, and says why, without needing a database. */
describe('operator CLI in cognito mode', () => {
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    IDENTITY_STORE: 'cognito',
    COGNITO_USER_POOL_ID: 'us-east-1_NoSuchPool',
    COGNITO_CLIENT_ID: 'no-such-client',
    AWS_REGION: 'us-east-1',
    // Nothing listens here: reaching for the database would be a connection error, not the refusal.
    DATABASE_URL: 'mysql://nobody@127.0.0.1:9/cli_test',
  };

  it.each([
    ['users:create', '--email', 'someone@example.com'],
    ['session:token', '--user', 'someone'],
  ])('%s exits non-zero with a one-line message', (command, ...args) => {
    const result = spawnSync('npm', ['run', '--silent', 'cli', '--', command, ...args], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim()).toBe(
      `${command} works only with IDENTITY_STORE=local; in cognito mode manage users in the pool and sign in to get a token`,
    );
    expect(result.stdout).toBe('');
  });
});
