import { WebhookDeliveryEntity } from '../src/database/entities';
import { documentedFetch } from './support/documented-http';
import { eventually } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import { ServerProcess, startServerProcess } from './support/server-process';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { TEST_WEBHOOK_SECRET, WebhookReceiver } from './support/webhook-receiver';

/** Each test starts two server processes: seconds each. */
const PROCESS_TEST_MS = 90_000;

/**
 * Webhooks (docs/webhooks.md): a change committed with its delivery row is delivered even when the
 * instance stops before delivering it. Real server processes on one database (local identity
 * store: an in-process app without webhooks makes the super-admin and signs the session).
 */
describe('webhook deliveries across a crash and a restart', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let helper: TestApp;
  let cookie: string;
  const servers: ServerProcess[] = [];

  const serve = async (env: Record<string, string> = {}) => {
    const server = await startServerProcess({
      DATABASE_URL: database.url,
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      WEBHOOK_URLS: receiver.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_MAX_MS: '200',
      ...env,
    });
    servers.push(server);
    return server;
  };
  const createTenant = async (server: ServerProcess, name: string) => {
    const res = await documentedFetch(server.url, '/api/admin/tenants', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name, type: 'business' }),
    });
    expect(res.status).toBe(201);
    return (res.json as { tenant: { id: string } }).tenant.id;
  };
  const deliveryOf = async (tenantId: string) => {
    const rows = await helper.dataSource
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('delivery')
      .innerJoin('audit_events', 'event', 'event.id = delivery.event_id')
      .where('event.target_id = :tenantId', { tenantId })
      .getMany();
    expect(rows).toHaveLength(1);
    return rows[0];
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await WebhookReceiver.start();
    helper = await createTestApp({ database });
    cookie = await sessionCookie(helper, await factories(helper).superAdmin());
  });
  // Each test's instances are its own: one left running would claim the next test's rows, and a row
  // read while that instance sends it is 'sending' under its claim.
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.kill()));
  });
  afterAll(async () => {
    await helper.close();
    await receiver.stop();
    await database.drop();
  });

  it(
    'killed (SIGKILL) after the commit, before its worker ran: the restarted instance delivers the event, once',
    async () => {
      // The worker looks once at start-up, then not for an hour: the change commits and nothing sends it.
      const first = await serve({ WEBHOOK_POLL_INTERVAL_MS: '3600000' });
      const tenantId = await createTenant(first, 'Crash Ltd');
      expect(await deliveryOf(tenantId)).toMatchObject({ status: 'pending', attempts: 0 });
      await first.kill();
      expect(first.child.signalCode).toBe('SIGKILL');

      await serve();
      const delivered = await eventually(
        async () => {
          const row = await deliveryOf(tenantId);
          expect(row).toMatchObject({ status: 'delivered', attempts: 1 });
          return row;
        },
        { timeoutMs: 10_000 },
      );
      expect(receiver.withId(delivered.eventId)).toHaveLength(1);
      expect(receiver.withId(delivered.eventId)[0].payload).toMatchObject({
        type: 'tenant.created',
        data: { target: { type: 'tenant', id: tenantId } },
      });
    },
    PROCESS_TEST_MS,
  );

  it(
    'stopped (SIGTERM) while the receiver is down: the delivery waits in the table, and the next instance delivers it',
    async () => {
      await receiver.stop();
      const first = await serve();
      const tenantId = await createTenant(first, 'Outage Ltd');
      await eventually(async () => expect((await deliveryOf(tenantId)).attempts).toBeGreaterThanOrEqual(2), {
        timeoutMs: 10_000,
      });
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      const left = await deliveryOf(tenantId);
      expect(left).toMatchObject({
        status: 'pending',
        claimedBy: null,
        lastError: expect.stringMatching(/ECONNREFUSED/),
      });

      await receiver.listen();
      await serve();
      await eventually(
        async () =>
          expect(await deliveryOf(tenantId)).toMatchObject({ status: 'delivered', attempts: left.attempts + 1 }),
        {
          timeoutMs: 10_000,
        },
      );
      expect(receiver.withId(left.eventId)).toHaveLength(1);
    },
    PROCESS_TEST_MS,
  );
});
