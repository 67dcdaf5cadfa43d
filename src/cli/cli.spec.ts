import { runCli } from './cli';
import { CliInputError } from './local-users.service';

describe('operator CLI in cognito mode', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    Object.assign(process.env, {
      IDENTITY_STORE: 'cognito',
      COGNITO_USER_POOL_ID: 'eu-west-1_pool',
      COGNITO_CLIENT_ID: 'client',
      AWS_REGION: 'eu-west-1',
      // Nothing listens here: a command that reached the database would fail with a connection error.
      DATABASE_URL: 'mysql://nobody@127.0.0.1:9/cli_test',
    });
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  it.each([
    ['users:create', ['--email', 'someone@example.com']],
    ['session:token', ['--user', 'someone']],
  ])('%s refuses with a clear message, before touching the database or the pool', async (command, args) => {
    const refusal = runCli([command, ...args]);
    await expect(refusal).rejects.toThrow(CliInputError);
    await expect(refusal).rejects.toThrow(
      `${command} works only with IDENTITY_STORE=local; in cognito mode manage users in the pool and sign in to get a token`,
    );
  });

  it('still reports a configuration error by the variable name', async () => {
    process.env.COGNITO_CLIENT_ID = '';
    await expect(runCli(['users:create', '--email', 'someone@example.com'])).rejects.toThrow(
      'Invalid configuration: COGNITO_CLIENT_ID must be set when IDENTITY_STORE=cognito',
    );
  });
});
