import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { toAuditEvent } from '../src/audit/audit-event';
import { runCli } from '../src/cli/cli';
import { CliInputError } from '../src/cli/local-users.service';
import { AuditEventEntity } from '../src/database/entities';
import { factories } from './support/factories';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/** The lifecycle for an operator without a session: `npm run -s cli -- tenants:suspend|reactivate|delete`. */
describe('operator CLI: tenants:suspend, tenants:reactivate, tenants:delete', () => {
  let database: TestDatabase;
  let t: TestApp;
  const saved = { ...process.env };
  /** In-process, as main.ts runs it (spawning npm per case would cost seconds apiece). */
  const run = (...args: string[]) => runCli(args);
  const events = async (tenantId: string) =>
    (
      await t.dataSource.getRepository(AuditEventEntity).find({ where: { tenantId }, order: { occurredAt: 'ASC' } })
    ).map(toAuditEvent);

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

  it('suspends with a reason, reactivates, deletes: each prints the tenant and records its event without an actor', async () => {
    const factory = factories(t);
    const tenant = await factory.tenant({ name: 'Acme', status: 'active' });
    const member = await factory.member(tenant.id, { role: 'member' });
    const shown = { id: tenant.id, name: 'Acme', type: tenant.type, createdAt: tenant.createdAt.toISOString() };

    expect(JSON.parse(await run('tenants:suspend', '--id', tenant.id, '--reason', 'Under investigation'))).toEqual({
      ...shown,
      status: 'suspended',
    });
    expect(JSON.parse(await run('tenants:reactivate', '--id', tenant.id))).toEqual({ ...shown, status: 'active' });
    expect(JSON.parse(await run('tenants:delete', '--id', tenant.id))).toEqual({ ...shown, status: 'deleted' });

    expect(await t.identity.findById(member.id)).toMatchObject({ tenantId: null, role: null });
    expect((await events(tenant.id)).map(({ type, actor, data }) => ({ type, actor, data }))).toEqual([
      { type: 'tenant.suspended', actor: null, data: { reason: 'Under investigation', statusBefore: 'active' } },
      { type: 'tenant.reactivated', actor: null, data: { status: 'active' } },
      { type: 'tenant.deleted', actor: null, data: { name: 'Acme', membersDetached: 1, invitationsRevoked: 0 } },
    ]);
  });

  it.each([
    ['no --id', ['tenants:suspend'], '--id is required'],
    ['an unknown tenant', ['tenants:reactivate', '--id', randomUUID()], 'Tenant not found'],
    ['a tenant that is not suspended', ['tenants:reactivate', '--id', 'ACTIVE'], 'Tenant is not suspended'],
    ['an unknown option', ['tenants:delete', '--id', 'x', '--force'], "Unknown option '--force'"],
  ])("refuses %s with the API's message", async (_, args, message) => {
    const tenant = await factories(t).tenant({ status: 'active' });
    const resolved = args.map((arg) => (arg === 'ACTIVE' ? tenant.id : arg));
    const failure = await run(...resolved).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CliInputError);
    expect((failure as Error).message).toContain(message);
  });

  it('as an operator runs it: `npm run -s cli -- tenants:delete` twice, the second refused with a one-line message', async () => {
    const tenant = await factories(t).tenant({ status: 'active' });
    const env = { ...process.env, NODE_ENV: 'test', DATABASE_URL: database.url, AUTH_JWT_SECRET: TEST_JWT_SECRET };
    const cli = () =>
      spawnSync('npm', ['run', '--silent', 'cli', '--', 'tenants:delete', '--id', tenant.id], {
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const first = cli();
    expect([first.status, JSON.parse(first.stdout).status]).toEqual([0, 'deleted']);
    const second = cli();
    expect([second.status, second.stderr.trim(), second.stdout]).toEqual([1, 'Tenant is deleted', '']);
  });
});
