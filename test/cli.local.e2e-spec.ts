import { runCli } from '../src/cli/cli';
import { CliInputError } from '../src/cli/local-users.service';
import { AuditEventEntity, InvitationEntity, TenantEntity } from '../src/database/entities';
import { factories } from './support/factories';
import { INVITATION_GET, INVITE_ERRORS, TENANT_ERRORS } from './support/spec-bodies';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/**
 * The operator CLI's commands (README), on each database: run in-process (runCli is what
 * dist/src/cli/main.js runs, with this process's environment), since spawning npm for each case
 * costs seconds apiece. What only a process shows (stdout, stderr, exit codes, npm's part) is
 * test/cli-process.local.e2e-spec.ts's, run once.
 */
describe('operator CLI', () => {
  let database: TestDatabase;
  let t: TestApp;
  const saved = { ...process.env };
  const run = (...args: string[]) => runCli(args);
  /** The refusal of a command: the one-line message main.ts prints on stderr, with exit code 1. */
  const refusal = (...args: string[]) =>
    run(...args).then(
      (output) => {
        throw new Error(`accepted, printing ${output}`);
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(CliInputError);
        return (error as CliInputError).message;
      },
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({ database });
    Object.assign(process.env, { DATABASE_URL: database.url, AUTH_JWT_SECRET: TEST_JWT_SECRET });
  });
  afterAll(async () => {
    process.env = { ...saved };
    await t.close();
    await database.drop();
  });

  describe('users:create', () => {
    it('creates the user and prints it as JSON', async () => {
      const printed = await run(
        'users:create',
        '--email',
        'Root@Example.com',
        '--id',
        'root',
        '--platform-role',
        'super_admin',
      );
      expect(JSON.parse(printed)).toEqual({
        id: 'root',
        email: 'root@example.com',
        platformRole: 'super_admin',
        userType: null,
        tenantId: null,
        role: null,
      });
      expect(await t.identity.findById('root')).toMatchObject({
        email: 'root@example.com',
        platformRole: 'super_admin',
      });
    });

    it('creates an org user with tenant and role', async () => {
      await factories(t).tenant({ id: 't-1' });
      const user = JSON.parse(
        await run(
          'users:create',
          '--email',
          'owner@example.com',
          '--user-type',
          'org',
          '--tenant-id',
          't-1',
          '--role',
          'owner',
        ),
      );
      expect(user).toMatchObject({ email: 'owner@example.com', userType: 'org', tenantId: 't-1', role: 'owner' });
      expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: 't-1', role: 'owner' });
    });

    it.each([
      ['a duplicate e-mail (any case)', ['--email', 'ROOT@example.com'], /already exists/],
      ['a bad role', ['--email', 'x@example.com', '--role', 'king'], /--role must be one of owner, admin, member/],
      ['a bad e-mail', ['--email', 'not-an-email'], /--email must be an e-mail address/],
      ['no e-mail', [], /--email is required/],
      ['an unknown option', ['--email', 'y@example.com', '--colour', 'red'], /Unknown option '--colour'/],
    ])('refuses %s with its message', async (_, args, message) => {
      expect(await refusal('users:create', ...args)).toMatch(message);
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
    ])('refuses %s with its message, creating nothing', async (_, args, message) => {
      expect(await refusal('users:create', '--email', 'half-member@example.com', ...args)).toBe(message);
      expect(await t.identity.findByEmail('half-member@example.com')).toEqual([]);
    });
  });

  describe('session:token', () => {
    const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());

    it('prints a token whose claims come from the user record; the API accepts it', async () => {
      const token = await run('session:token', '--user', 'root', '--ttl', '120');
      const claims = decode(token);
      expect(claims).toMatchObject({ sub: 'root', email: 'root@example.com', token_use: 'id' });
      expect(claims.exp - claims.iat).toBe(120);
      const res = await t.http.get('/api/admin/tenants').set('Cookie', `id_token=${token}`);
      expect(res.status).toBe(200);
    });

    it('--email-verified adds email_verified: true (joining by a verified domain needs it); without it the claim is absent', async () => {
      expect(decode(await run('session:token', '--user', 'root', '--email-verified'))).toMatchObject({
        sub: 'root',
        email_verified: true,
      });
      expect(decode(await run('session:token', '--user', 'root'))).not.toHaveProperty('email_verified');
    });

    it.each([
      ['an unknown user', ['--user', 'ghost'], /no user with id "ghost"/],
      ['a bad ttl', ['--user', 'root', '--ttl', 'soon'], /--ttl must be a whole number/],
      ['no user', [], /--user is required/],
    ])('refuses %s with its message', async (_, args, message) => {
      expect(await refusal('session:token', ...args)).toMatch(message);
    });
  });

  describe('help', () => {
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
        await t.dataSource.getRepository(AuditEventEntity).findBy({ tenantId: tenant.id, type: 'invitation.created' }),
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
      expect(await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id })).toMatchObject({
        status: 'expired',
      });
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
