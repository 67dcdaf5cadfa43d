import { spawnSync } from 'node:child_process';
import { runCli } from '../src/cli/cli';
import { CliInputError } from '../src/cli/local-users.service';
import { AuditEventEntity, InvitationEntity, TenantEntity } from '../src/database/entities';
import { factories } from './support/factories';
import { INVITATION_GET, INVITE_ERRORS, TENANT_ERRORS } from './support/spec-bodies';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/** The operator CLI (README), run as an operator would: `npm run -s cli -- …` with the server's configuration. */
describe('operator CLI', () => {
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

  describe('users:create', () => {
    it('creates the user and prints it as one line of JSON', () => {
      const result = cli(
        'users:create',
        '--email',
        'Root@Example.com',
        '--id',
        'root',
        '--platform-role',
        'super_admin',
      );
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
      await factories(t).tenant({ id: 't-1' });
      const result = cli(
        'users:create',
        '--email',
        'owner@example.com',
        '--user-type',
        'org',
        '--tenant-id',
        't-1',
        '--role',
        'owner',
      );
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

    // Each would make a user that the organisation routes refuse, or one in a tenant that is not there.
    it.each([
      [
        'a role without a tenant',
        ['--user-type', 'org', '--role', 'admin'],
        '--role needs --tenant-id: a role is held in a tenant',
      ],
      [
        'a tenant that does not exist',
        ['--user-type', 'org', '--tenant-id', 'no-such-tenant', '--role', 'admin'],
        'no tenant with id "no-such-tenant" (tenants:create makes one)',
      ],
      [
        'a tenant without --user-type org',
        ['--tenant-id', 't-1', '--role', 'member'],
        '--tenant-id needs --user-type org: the organisation routes refuse any other user of a tenant',
      ],
      [
        'a tenant without --user-type org, nor a role',
        ['--tenant-id', 't-1'],
        '--tenant-id needs --user-type org: the organisation routes refuse any other user of a tenant',
      ],
    ])('refuses %s with a one-line message and a non-zero exit, creating nothing', async (_, args, message) => {
      const result = cli('users:create', '--email', 'half-member@example.com', ...args);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toBe(message);
      expect(await t.identity.findByEmail('half-member@example.com')).toEqual([]);
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

    it('--email-verified adds email_verified: true (joining by a verified domain needs it); without it the claim is absent', () => {
      const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
      const verified = cli('session:token', '--user', 'root', '--email-verified');
      expect(verified.status).toBe(0);
      expect(decode(verified.stdout)).toMatchObject({ sub: 'root', email_verified: true });
      expect(decode(cli('session:token', '--user', 'root').stdout)).not.toHaveProperty('email_verified');
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

  it('prints the help when given no command, on stdout, exit 0', () => {
    const result = cli();
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(
      'Usage: npm run -s cli -- <command> [options]   (or: node dist/src/cli/main.js <command> [options])',
    );
    expect(result.stdout).toMatch(/^ {2}users:create /m);
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
        'invitations:expire, cognito:sync-tenant-groups, dev:seed (see --help)',
    );
  });

  /**
   * These commands run in-process (runCli is what main.ts runs, with this
   * process's environment): spawning npm for each case would cost seconds apiece. The spawned
   * cases above and --help below check what only a process shows: stdout, stderr, exit code.
   */
  describe('more commands, run in-process', () => {
    const saved = { ...process.env };
    const run = (...args: string[]) => runCli(args);
    beforeAll(() => Object.assign(process.env, { DATABASE_URL: database.url, AUTH_JWT_SECRET: TEST_JWT_SECRET }));
    afterAll(() => {
      process.env = { ...saved };
    });

    describe('help', () => {
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

      it.each([
        ['help COMMAND', ['help', 'invitations:expire']],
        ['COMMAND --help', ['invitations:expire', '--help']],
      ])("%s prints that command's usage", async (_, args) => {
        expect((await run(...args)).split('\n')[0]).toBe('Usage: npm run -s cli -- invitations:expire --id TOKEN');
      });

      it('help for an unknown command is refused', async () => {
        await expect(run('help', 'users:drop')).rejects.toThrow(/^unknown command "users:drop"/);
      });
    });

    describe('tenants:create', () => {
      it("creates the tenant by the API's rules and prints it as one line of JSON", async () => {
        const tenant = JSON.parse(await run('tenants:create', '--name', 'Acme', '--type', 'business'));
        expect(tenant).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: 'Acme',
          type: 'business',
          status: 'pending_owner',
          createdAt: expect.any(String),
        });
        expect(await t.dataSource.getRepository(TenantEntity).findOneByOrFail({ id: tenant.id })).toMatchObject({
          name: 'Acme',
          type: 'business',
          status: 'pending_owner',
        });
        // Recorded like the API's creation, with no actor (an operator at the console).
        expect(await t.dataSource.getRepository(AuditEventEntity).findBy({ targetId: tenant.id })).toEqual([
          expect.objectContaining({ type: 'tenant.created', tenantId: tenant.id, actorId: null, actorEmail: null }),
        ]);
      });

      it.each([
        ['no name', ['--type', 'business'], TENANT_ERRORS.nameRequired.error],
        ['no type', ['--name', 'Acme'], TENANT_ERRORS.typeRequired.error],
        ['a type outside the list', ['--name', 'Acme', '--type', 'guild'], TENANT_ERRORS.invalidType.error],
      ])("refuses %s with the API's message, creating nothing", async (_, args, message) => {
        const before = await t.dataSource.getRepository(TenantEntity).count();
        await expect(run('tenants:create', ...args)).rejects.toThrow(new CliInputError(message));
        expect(await t.dataSource.getRepository(TenantEntity).count()).toBe(before);
      });
    });

    describe('tenants:invite-owner', () => {
      it("invites the tenant's first owner by the API's rules, prints the invitation and link; the owner's join activates it", async () => {
        const tenant = JSON.parse(await run('tenants:create', '--name', 'Initech', '--type', 'business'));
        await run('users:create', '--email', 'first.owner@initech.example', '--id', 'first-owner');
        const printed = JSON.parse(
          await run('tenants:invite-owner', '--tenant-id', tenant.id, '--email', 'First.Owner@Initech.example'),
        );
        expect(printed).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          email: 'First.Owner@Initech.example',
          role: 'owner',
          status: 'pending',
          expiresAt: expect.any(String),
          link: `http://localhost:3000/invitations/${printed.id}`,
        });
        expect(await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: printed.id })).toMatchObject({
          tenantId: tenant.id,
          email: 'first.owner@initech.example',
          invitedBy: 'operator-cli',
        });
        expect(
          await t.dataSource
            .getRepository(AuditEventEntity)
            .findBy({ tenantId: tenant.id, type: 'invitation.created' }),
        ).toEqual([expect.objectContaining({ actorId: 'operator-cli', actorEmail: null })]);

        const token = await run('session:token', '--user', 'first-owner');
        const joined = await t.http.post(`/api/invitations/${printed.id}/join`).set('Cookie', `id_token=${token}`);
        expect([joined.status, joined.body]).toEqual([
          200,
          { success: true, tenantId: tenant.id, role: 'owner', userId: 'first-owner' },
        ]);
        expect(await t.dataSource.getRepository(TenantEntity).findOneByOrFail({ id: tenant.id })).toMatchObject({
          status: 'active',
        });
      });

      it.each([
        ['no --tenant-id', ['--email', 'a@example.com'], '--tenant-id is required'],
        [
          'an unknown tenant',
          ['--tenant-id', '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d', '--email', 'a@example.com'],
          'Tenant not found',
        ],
        ['no e-mail', ['--tenant-id', 'TENANT'], 'Email is required'],
        [
          'a role outside the list',
          ['--tenant-id', 'TENANT', '--email', 'a@example.com', '--role', 'king'],
          'Invalid role. Must be owner, admin or member',
        ],
      ])("refuses %s with the API's message, inviting nobody", async (_, args, message) => {
        const tenant = await factories(t).tenant();
        const before = await t.dataSource.getRepository(InvitationEntity).count();
        await expect(
          run('tenants:invite-owner', ...args.map((arg) => (arg === 'TENANT' ? tenant.id : arg))),
        ).rejects.toThrow(new CliInputError(message));
        expect(await t.dataSource.getRepository(InvitationEntity).count()).toBe(before);
      });
    });

    describe('users:list', () => {
      it('prints the users of the tenant, one line of JSON each', async () => {
        await factories(t).tenant({ id: 't-list' });
        await run(
          'users:create',
          '--email',
          'admin@t-list.example',
          '--id',
          'list-admin',
          '--user-type',
          'org',
          '--tenant-id',
          't-list',
          '--role',
          'admin',
        );
        await run(
          'users:create',
          '--email',
          'member@t-list.example',
          '--id',
          'list-member',
          '--user-type',
          'org',
          '--tenant-id',
          't-list',
          '--role',
          'member',
        );
        expect((await run('users:list', '--tenant', 't-list')).split('\n').map((line) => JSON.parse(line))).toEqual([
          {
            id: 'list-admin',
            email: 'admin@t-list.example',
            platformRole: null,
            userType: 'org',
            tenantId: 't-list',
            role: 'admin',
          },
          {
            id: 'list-member',
            email: 'member@t-list.example',
            platformRole: null,
            userType: 'org',
            tenantId: 't-list',
            role: 'member',
          },
        ]);
      });

      it('prints nothing for a tenant without users', async () => {
        expect(await run('users:list', '--tenant', 'no-such-tenant')).toBe('');
      });

      it('requires --tenant', async () => {
        await expect(run('users:list')).rejects.toThrow(new CliInputError('--tenant is required'));
      });
    });

    describe('invitations:expire', () => {
      it('moves the expiry into the past: the invitation then answers EXPIRED and is marked expired', async () => {
        const invitation = await factories(t).invitation();
        const printed = JSON.parse(await run('invitations:expire', '--id', invitation.id));
        expect(printed).toMatchObject({ id: invitation.id, email: invitation.email, status: 'pending' });
        expect(Date.parse(printed.expiresAt)).toBeLessThan(Date.now());
        const stored = await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id });
        expect(stored.expiresAt.toISOString()).toBe(printed.expiresAt);

        const res = await t.http.get(`/api/invitations/${invitation.id}`);
        expect([res.status, res.body]).toEqual([400, INVITATION_GET.expired]);
        expect(await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id })).toMatchObject(
          { status: 'expired' },
        );
      });

      it.each([
        [
          'an unknown invitation',
          () => Promise.resolve('9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d'),
          'no invitation with id "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"',
        ],
        [
          'an accepted invitation',
          async () =>
            (await factories(t).invitation({ id: '1c0a5f0e-9d7e-4a57-8f9c-6f1b2d3e4a5b', status: 'accepted' })).id,
          'invitation "1c0a5f0e-9d7e-4a57-8f9c-6f1b2d3e4a5b" is already accepted',
        ],
      ])('refuses %s, changing nothing', async (_, id, message) => {
        const token = await id();
        const before = await t.dataSource.getRepository(InvitationEntity).findOneBy({ id: token });
        await expect(run('invitations:expire', '--id', token)).rejects.toThrow(new CliInputError(message));
        expect(await t.dataSource.getRepository(InvitationEntity).findOneBy({ id: token })).toEqual(before);
      });
    });

    describe('dev:seed', () => {
      it('makes a demo tenant with an owner, an admin and a member, and prints their working session tokens', async () => {
        const demo = JSON.parse(await run('dev:seed'));
        expect(demo.tenant).toMatchObject({ name: 'Demo Organisation', type: 'organisation', status: 'active' });
        for (const role of ['owner', 'admin', 'member']) {
          expect(demo[role]).toEqual({
            id: `demo-${role}`,
            email: `${role}@demo.example`,
            platformRole: null,
            userType: 'org',
            tenantId: demo.tenant.id,
            role,
            token: expect.any(String),
          });
        }
        const invite = (role: string) =>
          t.http
            .post('/api/org/invite')
            .set('Cookie', `id_token=${demo[role].token}`)
            .send({ email: `new-${role}@example.com`, role: 'member' });
        expect((await invite('owner')).status).toBe(200);
        expect((await invite('admin')).status).toBe(200);
        const refused = await invite('member');
        expect([refused.status, refused.body]).toEqual([403, INVITE_ERRORS.notOwnerOrAdmin]);

        // Again: the same tenant and users, fresh tokens, nothing duplicated.
        const again = JSON.parse(await run('dev:seed'));
        expect(again.tenant).toEqual(demo.tenant);
        expect(again.owner.id).toBe('demo-owner');
        expect(await t.dataSource.getRepository(TenantEntity).countBy({ name: 'Demo Organisation' })).toBe(1);
      });

      it('makes the demo tenant active, as its first owner joining would: the stored row and one tenant.activated event', async () => {
        const demo = JSON.parse(await run('dev:seed'));
        await run('dev:seed');
        expect(await t.dataSource.getRepository(TenantEntity).findOneBy({ id: demo.tenant.id })).toMatchObject({
          status: 'active',
        });
        const events = await t.dataSource
          .getRepository(AuditEventEntity)
          .findBy({ tenantId: demo.tenant.id, type: 'tenant.activated' });
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ actorId: 'demo-owner', targetId: demo.tenant.id });
      });

      it('refuses with NODE_ENV=production', async () => {
        process.env.NODE_ENV = 'production';
        try {
          await expect(run('dev:seed')).rejects.toThrow(
            new CliInputError('dev:seed makes demo users with known ids; refusing with NODE_ENV=production'),
          );
        } finally {
          process.env.NODE_ENV = 'test';
        }
      });
    });
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
