import { spawnSync } from 'node:child_process';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/**
 * The operator CLI (README) as an operator runs it, `npm run -s cli -- …` with the server's
 * configuration: what only a process shows (stdout, stderr, the exit code, npm's part). Once, on
 * SQLite: the commands themselves run on each database in test/cli.local.e2e-spec.ts.
 */
describe('operator CLI, as a process', () => {
  let database: TestDatabase;
  let t: TestApp;
  // An operator's shell: none of the npm_* settings of the `npm test` running this suite.
  const shell = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const env = () => ({ ...shell(), NODE_ENV: 'test', DATABASE_URL: database.url, AUTH_JWT_SECRET: TEST_JWT_SECRET });
  /** The README's form, `npm run -s cli -- …` (-s: no npm banner): stdout and stderr carry the command's output alone. */
  const cli = (...args: string[]) => {
    const result = spawnSync('npm', ['run', '-s', 'cli', '--', ...args], {
      env: env(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('users:create prints the user as one line of JSON on stdout, exit 0', async () => {
    const result = cli('users:create', '--email', 'Root@Example.com', '--id', 'root', '--platform-role', 'super_admin');
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(result.stdout.split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 'root', email: 'root@example.com' });
    expect(await t.identity.findById('root')).toMatchObject({ email: 'root@example.com' });
  });

  it.each([
    ['a bad role', ['users:create', '--email', 'x@example.com', '--role', 'king'], /--role must be one of owner/],
    ['an unknown option', ['users:create', '--email', 'y@example.com', '--colour', 'red'], /Unknown option '--colour'/],
    ['an unknown user', ['session:token', '--user', 'ghost'], /no user with id "ghost"/],
  ])('refuses %s with a one-line message on stderr and a non-zero exit', (_, args, message) => {
    const result = cli(...args);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it('session:token prints only a token on stdout, which the API accepts', async () => {
    const result = cli('session:token', '--user', 'root');
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const res = await t.http.get('/api/admin/tenants').set('Cookie', `id_token=${result.stdout}`);
    expect(res.status).toBe(200);
  });

  it('prints the help when given no command, on stdout, exit 0', () => {
    const result = cli();
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(
      'Usage: npm run -s cli -- <command> [options]   (or: node dist/src/cli/main.js <command> [options])',
    );
    expect(result.stdout).toMatch(/^ {2}users:create /m);
    expect(result.stderr).toBe('');
  });

  it('--help prints the usage of every command on stdout and exits 0', () => {
    const result = cli('--help');
    expect(result.status).toBe(0);
    for (const command of [
      'users:create',
      'session:token',
      'tenants:create',
      'users:list',
      'invitations:expire',
      'dev:seed',
      'help',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
    expect(result.stderr).toBe('');
  });

  // The CLI's clean stdout comes from -s on its command line, not from silencing npm in .npmrc.
  it("npm's own errors reach the user in this project: a misspelt script says why", () => {
    const told = spawnSync('npm', ['run', 'strat'], { env: env(), encoding: 'utf8', timeout: 60_000 });
    expect(told.status).toBe(1);
    expect(told.stderr).toContain('npm error Missing script: "strat"');
  });

  it("`npm run cli -- …` prints npm's banner before the output; `npm run -s cli -- …`, the README's form, the output alone", () => {
    const npmRun = (...args: string[]) =>
      spawnSync('npm', ['run', ...args, 'cli', '--', 'help', 'session:token'], {
        env: env(),
        encoding: 'utf8',
        timeout: 60_000,
      });
    const usage = 'Usage: npm run -s cli -- session:token --user ID [--ttl SECONDS] [--email-verified]';
    const banner = npmRun();
    expect(banner.status).toBe(0);
    expect(banner.stdout).toMatch(/^\n?> tenant-invitation-service@[^\n]+ cli\n/);
    expect(banner.stdout).toContain(usage);
    const silent = npmRun('-s');
    expect([silent.status, silent.stdout.split('\n')[0]]).toEqual([0, usage]);
  });

  it('refuses an unknown command', () => {
    const result = cli('users:drop');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toBe(
      'unknown command "users:drop"; commands: users:create, session:token, tenants:create, ' +
        'tenants:invite-owner, tenants:suspend, tenants:reactivate, tenants:delete, users:list, ' +
        'invitations:expire, cognito:sync-tenant-groups, sso:rotate-secrets, dev:seed (see --help)',
    );
  });

  it('names the variable when the configuration is bad', () => {
    const result = spawnSync('npm', ['run', '-s', 'cli', '--', 'session:token', '--user', 'root'], {
      env: { ...env(), INVITE_RATE_LIMIT: 'lots' },
      encoding: 'utf8',
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim()).toMatch(/INVITE_RATE_LIMIT must be a whole number/);
  });
});
