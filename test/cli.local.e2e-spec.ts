import { spawnSync } from 'node:child_process';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/** CONTRACT "Operator CLI", run as an operator would: `npm run cli -- …` with the server's configuration. */
describe('operator CLI', () => {
  let database: TestDatabase;
  let t: TestApp;
  const env = () => ({ ...process.env, NODE_ENV: 'test', DATABASE_URL: database.url, AUTH_JWT_SECRET: TEST_JWT_SECRET });
  const cli = (...args: string[]) => {
    const result = spawnSync('npm', ['run', '--silent', 'cli', '--', ...args], { env: env(), encoding: 'utf8', timeout: 60_000 });
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

  describe('users:create', () => {
    it('creates the user and prints it as one line of JSON', () => {
      const result = cli('users:create', '--email', 'Root@Example.com', '--id', 'root', '--platform-role', 'super_admin');
      expect(result.status).toBe(0);
      expect(result.stdout.split('\n')).toHaveLength(1);
      expect(JSON.parse(result.stdout)).toEqual({
        id: 'root',
        email: 'root@example.com',
        platformRole: 'super_admin',
        userType: null,
        tenantId: null,
        role: null,
      });
    });

    it('creates an org user with tenant and role', async () => {
      const result = cli('users:create', '--email', 'owner@example.com', '--user-type', 'org', '--tenant-id', 't-1', '--role', 'owner');
      expect(result.status).toBe(0);
      const user = JSON.parse(result.stdout);
      expect(user).toMatchObject({ email: 'owner@example.com', userType: 'org', tenantId: 't-1', role: 'owner' });
      expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: 't-1', role: 'owner' });
    });

    it.each([
      ['a duplicate e-mail (any case)', ['--email', 'ROOT@example.com'], /already exists/],
      ['a bad role', ['--email', 'x@example.com', '--role', 'king'], /--role must be one of owner, admin, member/],
      ['a bad e-mail', ['--email', 'not-an-email'], /--email must be an e-mail address/],
      ['no e-mail', [], /--email is required/],
      ['an unknown option', ['--email', 'y@example.com', '--colour', 'red'], /Unknown option '--colour'/],
    ])('refuses %s with a one-line message and a non-zero exit', (_, args, message) => {
      const result = cli('users:create', ...args);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split('\n')).toHaveLength(1);
    });
  });

  describe('session:token', () => {
    it('prints a token whose claims come from the user record; the API accepts it', async () => {
      const result = cli('session:token', '--user', 'root', '--ttl', '120');
      expect(result.status).toBe(0);
      const [, payload] = result.stdout.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      expect(claims).toMatchObject({ sub: 'root', email: 'root@example.com', token_use: 'id' });
      expect(claims.exp - claims.iat).toBe(120);
      const res = await t.http.get('/api/admin/tenants').set('Cookie', `id_token=${result.stdout}`);
      expect(res.status).toBe(200);
    });

    it.each([
      ['an unknown user', ['--user', 'ghost'], /no user with id "ghost"/],
      ['a bad ttl', ['--user', 'root', '--ttl', 'soon'], /--ttl must be a whole number/],
      ['no user', [], /--user is required/],
    ])('refuses %s with a one-line message and a non-zero exit', (_, args, message) => {
      const result = cli('session:token', ...args);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split('\n')).toHaveLength(1);
    });
  });

  it('refuses an unknown command', () => {
    const result = cli('users:drop');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toBe('unknown command "users:drop"; commands: users:create, session:token');
  });

  it('names the variable when the configuration is bad', () => {
    const result = spawnSync('npm', ['run', '--silent', 'cli', '--', 'session:token', '--user', 'root'], {
      env: { ...env(), INVITE_RATE_LIMIT: 'lots' },
      encoding: 'utf8',
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim()).toMatch(/INVITE_RATE_LIMIT must be a whole number/);
  });
});
