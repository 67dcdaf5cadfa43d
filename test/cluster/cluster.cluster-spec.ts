import { In } from 'typeorm';
import { InvitationEmailOutboxEntity, InvitationEntity } from '../../src/database/entities';
import { MIGRATIONS } from '../../migrations';
import { eventually, outboxSettled } from '../support/eventually';
import { factories } from '../support/factories';
import { newInviter, timedInvite } from '../support/inviting';
import { INVITATION_POST, INVITE_ERRORS } from '../support/spec-bodies';
import { TestApp } from '../support/test-app';
import { TEST_WEBHOOK_SECRET, WebhookReceiver } from '../support/webhook-receiver';
import { parseConfig } from '../../src/config/app-config';
import { ClusteredDataSource } from '../../src/database/clustered-data-source';
import { AtomicWriter } from '../../src/database/atomic-writer';
import { InvitationsStore } from '../../src/invitations/invitations.store';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { ClusterFleet, clusterNode, createClusterDatabase, onNode, startClusterFleet } from './cluster-fleet';
import { Clock } from '../../src/common/clock';

const TEST_MODE_KEY = 'cluster-suite-key-0123456789';

/**
 * Two instances of the service, the first on Galera node 1 and the second on node 2, sharing a
 * three-master Redis Cluster (scripts/local-cluster.sh): the promises that hold on one server hold here.
 */
describe('two instances on a Galera cluster and a Redis Cluster', () => {
  let fleet: ClusterFleet;
  let apps: [TestApp, TestApp];
  /** Round-robin, as a load balancer would. */
  let next = 0;
  const balanced = () => apps[next++ % 2];

  beforeAll(async () => {
    fleet = await startClusterFleet({ TEST_MODE: 'true', TEST_MODE_KEY: TEST_MODE_KEY });
    apps = fleet.apps;
  }, 120_000);
  afterAll(async () => {
    await fleet?.close();
  }, 60_000);

  describe('start-up on two nodes at once', () => {
    it('the migrations ran once (the lock is a lease, released), and every table has a primary key', async () => {
      const applied = await onNode<{ name: string }[]>(3, `SELECT name FROM \`${fleet.database.name}\`.migrations`);
      expect(applied.map((row) => row.name).sort()).toEqual(MIGRATIONS.map((migration) => migration.name).sort());
      const lease = `SELECT holder FROM \`${fleet.database.name}\`.leases WHERE name = 'migrations'`;
      expect(await onNode(2, lease)).toEqual([{ holder: null }]);
      const withoutKey = await onNode<{ table_name: string }[]>(
        1,
        'SELECT t.table_name FROM information_schema.tables t WHERE t.table_schema = ? AND NOT EXISTS ' +
          '(SELECT 1 FROM information_schema.table_constraints c WHERE c.table_schema = ' +
          "t.table_schema AND c.table_name = t.table_name AND c.constraint_type = 'PRIMARY KEY')",
        [fleet.database.name],
      );
      expect(withoutKey).toEqual([]);
    });

    it('two migration runs at the same time on two nodes: one applies, the other waits and finds nothing to do', async () => {
      const database = await createClusterDatabase();
      try {
        const config = (node: number) => parseConfig({ NODE_ENV: 'test', DATABASE_URL: database.urlFor(node) });
        const sources = [1, 3].map(
          (node) => new ClusteredDataSource({ ...dataSourceOptions(config(node)), migrationsRun: false }),
        );
        await Promise.all(sources.map((source) => source.initialize()));
        const runs = await Promise.all(sources.map((source) => source.runMigrations({ transaction: 'each' })));
        expect(runs.map((applied) => applied.length).sort((a, b) => a - b)).toEqual([0, MIGRATIONS.length]);
        await Promise.all(sources.map((source) => source.destroy()));
        const applied = await onNode<unknown[]>(2, `SELECT name FROM \`${database.name}\`.migrations`);
        expect(applied).toHaveLength(MIGRATIONS.length);
      } finally {
        await database.drop();
      }
    }, 60_000);

    it('GET /health/ready reports the Redis Cluster as ok, with its three masters', async () => {
      for (const app of apps) {
        const res = await app.http.get('/health/ready');
        expect([res.status, res.body.details.redis]).toEqual([
          200,
          { status: 'up', cluster: 'ok', slotsOk: 16384, masters: 3 },
        ]);
      }
    });
  });

  describe('POST /api/invitations/{token} through both instances', () => {
    it('20 tokens, each accepted 10 times in parallel: one 200 each, the others 400 ALREADY_USED, no 5xx', async () => {
      const tenant = await factories(apps[0]).tenant();
      const invitations = await Promise.all(
        Array.from({ length: 20 }, () => factories(apps[0]).invitation({ tenantId: tenant.id, role: 'admin' })),
      );
      const answers = await Promise.all(
        invitations.flatMap((invitation) =>
          Array.from({ length: 10 }, async () => {
            const res = await balanced().http.post(`/api/invitations/${invitation.id}`);
            return { id: invitation.id, status: res.status, body: res.body };
          }),
        ),
      );
      for (const invitation of invitations) {
        const mine = answers.filter((answer) => answer.id === invitation.id);
        expect(mine.filter((answer) => answer.status === 200).map((answer) => answer.body)).toEqual([
          { success: true, tenantId: tenant.id, role: 'admin' },
        ]);
        expect(mine.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body])).toEqual(
          Array(9).fill([400, INVITATION_POST.alreadyUsed]),
        );
      }
      const rows = await apps[1].dataSource
        .getRepository(InvitationEntity)
        .findBy({ id: In(invitations.map((invitation) => invitation.id)) });
      expect(rows.map((row) => row.status)).toEqual(Array(20).fill('accepted'));
    });
  });

  describe('AtomicWriter on two nodes', () => {
    it('parallel compare-and-sets of one row through both nodes: one true, the others false, never a deadlock error', async () => {
      const tenant = await factories(apps[0]).tenant();
      const invitations = await Promise.all(
        Array.from({ length: 20 }, () => factories(apps[0]).invitation({ tenantId: tenant.id })),
      );
      const writers = apps.map((app) => app.app.get(AtomicWriter));
      const outcomes = await Promise.all(
        invitations.flatMap((invitation) =>
          Array.from({ length: 6 }, (_, i) =>
            writers[i % 2]
              .insert(
                [],
                [
                  "UPDATE tenant_invitations SET status = 'revoked' WHERE id = ? AND status = 'pending'",
                  [invitation.id],
                ],
              )
              .then(
                (changed) => ({ id: invitation.id, changed }),
                (error: Error) => ({ id: invitation.id, changed: error.message }),
              ),
          ),
        ),
      );
      for (const invitation of invitations) {
        expect(
          outcomes
            .filter((outcome) => outcome.id === invitation.id)
            .map((outcome) => outcome.changed)
            .sort(),
        ).toEqual([false, false, false, false, false, true]);
      }
    });

    it("a compare-and-set that another node's commit aborted is never reported done: 200 tokens x10 through both nodes", async () => {
      // MariaDB Galera does not report a brute-force abort in the middle of a multi-statement query
      // (MultiStatementPool): sent that way, about one token in a hundred had two winners.
      const tenant = await factories(apps[0]).tenant();
      const invitations = await Promise.all(
        Array.from({ length: 200 }, () => factories(apps[0]).invitation({ tenantId: tenant.id })),
      );
      const stores = apps.map((app) => app.app.get(InvitationsStore));
      const now = new Date();
      const winners = await Promise.all(
        invitations.map(async (invitation) => {
          const attempts = await Promise.all(
            Array.from({ length: 10 }, (_, i) => stores[i % 2].acceptAtOnce(invitation.id, now)),
          );
          return attempts.filter((attempt) => attempt?.accepted).length;
        }),
      );
      expect(winners).toEqual(Array(200).fill(1));
      const events = await onNode<{ target_email: string }[]>(
        3,
        `SET STATEMENT wsrep_sync_wait = 1 FOR SELECT target_email FROM \`${fleet.database.name}\`.audit_events ` +
          "WHERE tenant_id = ? AND type = 'invitation.accepted'",
        [tenant.id],
      );
      expect(events.map((event) => event.target_email).sort()).toEqual(
        invitations.map((invitation) => invitation.email).sort(),
      );
    }, 60_000);
  });

  describe('POST /api/org/invite through both instances', () => {
    it("one inviter's invites spread over both instances never pass the limit (10 per window)", async () => {
      const inviter = await newInviter(apps[0]);
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, i) => timedInvite(balanced(), inviter.cookie, `limit-${i}@example.com`)),
      );
      expect(answers.filter((res) => res.status === 200)).toHaveLength(10);
      expect(answers.filter((res) => res.status !== 200).map((res) => [res.status, res.body])).toEqual(
        Array(6).fill([429, INVITE_ERRORS.rateLimited]),
      );
      for (const app of apps) {
        expect((await timedInvite(app, inviter.cookie, 'one-more@example.com')).status).toBe(429);
      }
    });

    it("one inviter's bulk rows and invites over both instances at once: 10 created in all, 10 stored", async () => {
      const inviter = await newInviter(apps[0]);
      const bulk = (app: TestApp, i: number) =>
        app.http
          .post('/api/org/invitations/bulk')
          .set('Cookie', inviter.cookie)
          .send({
            invitations: Array.from({ length: 3 }, (_, j) => ({
              email: `bulk-limit-${i}-${j}@example.com`,
              role: 'member',
            })),
          });
      const [bulks, invites] = await Promise.all([
        Promise.all(Array.from({ length: 4 }, (_, i) => bulk(apps[i % 2], i))),
        Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            timedInvite(apps[(i + 1) % 2], inviter.cookie, `single-limit-${i}@example.com`),
          ),
        ),
      ]);
      expect([...bulks, ...invites].filter((res) => res.status >= 500)).toEqual([]);
      const created =
        bulks.reduce((sum, res) => sum + (res.status === 200 ? (res.body.summary.created as number) : 0), 0) +
        invites.filter((res) => res.status === 200).length;
      expect(created).toBe(10);
      // Read through the other node, which applies the cluster's writes a moment after they commit.
      const stored = () => apps[1].dataSource.getRepository(InvitationEntity).countBy({ tenantId: inviter.tenant.id });
      await eventually(async () => expect(await stored()).toBe(10));
    });

    it('500 invitations created through both at once: each stored once, each e-mail sent once', async () => {
      // 50 inviters of 10 each: the limit is per inviter.
      const inviters = await Promise.all(Array.from({ length: 50 }, () => newInviter(apps[0])));
      const answers = await Promise.all(
        inviters.flatMap((inviter, i) =>
          Array.from({ length: 10 }, (_, j) => timedInvite(balanced(), inviter.cookie, `many-${i}-${j}@example.com`)),
        ),
      );
      expect(answers.filter((res) => res.status !== 200).map((res) => [res.status, res.body])).toEqual([]);
      const rows = await apps[1].dataSource
        .getRepository(InvitationEntity)
        .findBy({ tenantId: In(inviters.map((inviter) => inviter.tenant.id)) });
      expect(rows).toHaveLength(500);
      expect(new Set(rows.map((row) => row.email)).size).toBe(500);
      const bulk = () => fleet.smtp.messages.filter((mail) => mail.to[0].startsWith('many-'));
      await eventually(() => expect(bulk().length).toBeGreaterThanOrEqual(500), { timeoutMs: 60_000 });
      await outboxSettled(apps[0].dataSource, 30_000);
      const recipients = fleet.smtp.messages
        .map((mail) => mail.to[0])
        .filter((to) => to.startsWith('many-'))
        .sort();
      expect(recipients).toEqual(rows.map((row) => row.email.toLowerCase()).sort());
    }, 120_000);
  });

  describe('POST /api/org/invite through two instances that send webhooks', () => {
    it('300 invitations created through both at once: each invitation.created webhook delivered once, each e-mail sent once', async () => {
      // A fleet of its own: with webhook URLs the accept takes its step-by-step path, which the tests above must not.
      const receiver = await WebhookReceiver.start();
      const senders = await startClusterFleet({
        WEBHOOK_URLS: receiver.url,
        WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        WEBHOOK_POLL_INTERVAL_MS: '50',
      });
      try {
        const inviters = await Promise.all(Array.from({ length: 30 }, () => newInviter(senders.apps[0])));
        const answers = await Promise.all(
          inviters.flatMap((inviter, i) =>
            Array.from({ length: 10 }, (_, j) =>
              timedInvite(senders.apps[(i + j) % 2], inviter.cookie, `hooked-${i}-${j}@example.com`),
            ),
          ),
        );
        expect(answers.filter((res) => res.status !== 200).map((res) => [res.status, res.body])).toEqual([]);
        const created = () =>
          receiver.received.filter((hook) => hook.payload.type === 'invitation.created').map((hook) => hook.payload);
        await eventually(() => expect(created().length).toBeGreaterThanOrEqual(300), { timeoutMs: 60_000 });
        await outboxSettled(senders.apps[0].dataSource, 30_000);
        const expected = inviters.flatMap((_, i) =>
          Array.from({ length: 10 }, (_, j) => `hooked-${i}-${j}@example.com`),
        );
        expect(
          created()
            .map((payload) => (payload.data.target as { email: string }).email)
            .sort(),
        ).toEqual(expected.sort());
        expect(new Set(created().map((payload) => payload.data.id)).size).toBe(300);
        expect(receiver.unverified).toEqual([]);
        const mailed = senders.smtp.messages.map((mail) => mail.to[0]).filter((to) => to.startsWith('hooked-'));
        expect(mailed.sort()).toEqual(expected.sort());
      } finally {
        await senders.close();
        await receiver.stop();
      }
    }, 180_000);
  });

  describe('POST /api/test/clock through one instance', () => {
    it("moves every inviter's window on every master, and the other instance's clock follows (pub/sub)", async () => {
      // Inviters whose counters lie in different slots, so on different masters.
      const inviters = await Promise.all(Array.from({ length: 6 }, () => newInviter(apps[0])));
      await Promise.all(
        inviters.map(async (inviter) => {
          for (let n = 0; n < 10; n++)
            await timedInvite(apps[0], inviter.cookie, `window-${n}-${inviter.user.id}@example.com`);
          expect((await timedInvite(apps[0], inviter.cookie, `refused-${inviter.user.id}@example.com`)).status).toBe(
            429,
          );
        }),
      );
      const clock = (body: object) =>
        apps[1].http.post('/api/test/clock').set('X-Test-Mode-Key', TEST_MODE_KEY).send(body);
      try {
        expect((await clock({ advanceSeconds: 3_600 })).status).toBe(200);
        await eventually(() => expect(apps[0].app.get(Clock).offset).toBe(3_600_000));
        for (const inviter of inviters) {
          const again = await timedInvite(apps[0], inviter.cookie, `again-${inviter.user.id}@example.com`);
          expect([again.status, again.body.invitation?.status]).toEqual([200, 'pending']);
        }
      } finally {
        expect((await clock({ reset: true })).status).toBe(200);
        await eventually(() => expect(apps[0].app.get(Clock).offset).toBe(0));
      }
    });
  });

  describe('a Galera node stopped under load', () => {
    it('no 5xx on the instance whose node is alive, nothing lost or stored twice, and the node rejoins', async () => {
      const inviters = await Promise.all(Array.from({ length: 8 }, () => newInviter(apps[0])));
      const answered: { app: number; email: string; status: number }[] = [];
      let stop = false;
      const load = inviters.map(async (inviter, i) => {
        for (let j = 0; j < 10 && !stop; j++) {
          const app = (i + j) % 2;
          const email = `load-${i}-${j}@example.com`;
          const res = await timedInvite(apps[app], inviter.cookie, email);
          answered.push({ app, email, status: res.status });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Node 1 is the first instance's: it moves to node 2, where the second instance is.
      await clusterNode('stop', 'galera', 1);
      await Promise.all(load);
      stop = true;

      expect(answered.filter((answer) => answer.app === 1 && answer.status >= 500)).toEqual([]);
      const rows = await apps[1].dataSource
        .getRepository(InvitationEntity)
        .findBy({ tenantId: In(inviters.map((inviter) => inviter.tenant.id)) });
      const stored = rows.map((row) => row.email).sort();
      expect(new Set(stored).size).toBe(stored.length);
      const ok = answered.filter((answer) => answer.status === 200).map((answer) => answer.email);
      for (const email of ok) expect(stored).toContain(email);
      // The first instance serves again, on node 2.
      const fresh = await newInviter(apps[1]);
      expect((await timedInvite(apps[0], fresh.cookie, 'after-stop@example.com')).status).toBe(200);

      await clusterNode('start', 'galera', 1);
      const [{ count }] = await onNode<{ count: number }[]>(
        1,
        `SELECT COUNT(*) AS count FROM \`${fleet.database.name}\`.tenant_invitations WHERE tenant_id IN (?)`,
        [inviters.map((inviter) => inviter.tenant.id)],
      );
      expect(Number(count)).toBe(stored.length);
      const outbox = await apps[1].dataSource
        .getRepository(InvitationEmailOutboxEntity)
        .countBy({ invitationId: In(rows.map((row) => row.id)) });
      expect(outbox).toBe(rows.length);
    }, 120_000);
  });

  describe('a Redis master stopped', () => {
    it('invites still answered (counted in memory, docs/invitations.md), readiness 200 reporting the cluster down; recovers', async () => {
      const inviter = await newInviter(apps[0]);
      await clusterNode('stop', 'redis', 3);
      try {
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) => timedInvite(balanced(), inviter.cookie, `redis-down-${i}@example.com`)),
        );
        expect(answers.map((res) => res.status)).toEqual(Array(6).fill(200));
        for (const res of answers) expect(res.ms).toBeLessThan(5_000);
        await eventually(
          async () => {
            const res = await apps[0].http.get('/health/ready');
            expect([res.status, res.body.details.redis.status, res.body.details.redis.degraded]).toEqual([
              200,
              'up',
              true,
            ]);
          },
          { timeoutMs: 15_000, intervalMs: 500 },
        );
      } finally {
        await clusterNode('start', 'redis', 3);
      }
      await eventually(
        async () => expect((await apps[1].http.get('/health/ready')).body.details.redis.cluster).toBe('ok'),
        { timeoutMs: 20_000, intervalMs: 500 },
      );
    }, 60_000);
  });
});
