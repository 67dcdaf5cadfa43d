/**
 * HTTP benchmark: throughput, latency percentiles and memory of the main endpoints, on the real
 * server in its own process over loopback (SQLite by default; BENCH_DATABASE_URL=mysql://…/test
 * for MariaDB, where a fresh database is made and dropped).
 *   npm run bench                      # 5 s per scenario, 20 connections
 *   BENCH_SECONDS=20 BENCH_CONCURRENCY=50 npm run bench
 *   BENCH_AUDIT_EVENTS=100000 npm run bench   # fewer audit events to seed (default 1,000,000)
 * Numbers depend on the machine: compare runs on the same one, never assert on them in tests.
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { encodeAuditCursor } from '../src/audit/audit-cursor';
import { AUDIT_EVENT_TYPES, toAuditEventRow } from '../src/audit/audit-event';
import { AuditEventEntity } from '../src/database/entities';
import { factories, sessionCookie } from '../test/support/factories';
import { startServerProcess } from '../test/support/server-process';
import { createTestApp, TEST_JWT_SECRET } from '../test/support/test-app';
import { createTestDatabase } from '../test/support/test-database';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const AUDIT_EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);

interface Scenario {
  name: string;
  expect: number;
  method: 'GET' | 'POST';
  path: string;
  cookie?: string;
  /** A body for each request; `i` makes bodies unique where the endpoint needs it. */
  body?: (i: number) => unknown;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Load from autocannon (its own HTTP client, far lighter than fetch), one scenario at a time. */
async function run(url: string, scenario: Scenario) {
  let i = 0;
  const result = await autocannon({
    url: url + scenario.path,
    method: scenario.method,
    connections: CONCURRENCY,
    duration: SECONDS,
    headers: { 'content-type': 'application/json', ...(scenario.cookie && { cookie: scenario.cookie }) },
    ...(scenario.body && {
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(scenario.body!(i++)) }) }],
    }),
  });
  const unexpected = result.requests.total - (result.statusCodeStats?.[String(scenario.expect) as '200']?.count ?? 0);
  console.log(
    [
      scenario.name.padEnd(36),
      `${(result.requests.total / SECONDS).toFixed(0).padStart(6)} req/s`,
      `p50 ${result.latency.p50} ms`,
      `p97.5 ${result.latency.p97_5} ms`,
      `p99 ${result.latency.p99} ms`,
      unexpected ? `UNEXPECTED STATUS x${unexpected}` : '',
    ].join('  '),
  );
}

/**
 * AUDIT_EVENTS events, one a second back from now, spread over 100 tenants, 1,000 actors and all
 * types; the cursor of the middle one, for a page deep in the trail.
 */
async function seedAuditEvents(dataSource: DataSource, tenantId: string): Promise<string> {
  const start = Date.now();
  let middle = '';
  for (let from = 0; from < AUDIT_EVENTS; from += 500) {
    const rows = [];
    for (let i = from; i < Math.min(from + 500, AUDIT_EVENTS); i++) {
      const row = toAuditEventRow(randomUUID(), new Date(start - i * 1_000), {
        type: AUDIT_EVENT_TYPES[i % AUDIT_EVENT_TYPES.length],
        tenantId: i % 100 === 0 ? tenantId : `tenant-${i % 100}`,
        actor: { id: `actor-${i % 1_000}`, email: `actor-${i % 1_000}@example.com` },
        target: { type: 'user', id: `user-${i}`, email: `user-${i}@example.com` },
        data: { role: 'member' },
      });
      if (i === Math.floor(AUDIT_EVENTS / 2)) middle = encodeAuditCursor(row);
      rows.push(row);
    }
    await dataSource.getRepository(AuditEventEntity).insert(rows);
  }
  return middle;
}

/** Resident memory of a process, from /proc (Linux). */
async function rssOf(pid: number): Promise<number> {
  const status = await import('node:fs/promises').then((fs) => fs.readFile(`/proc/${pid}/status`, 'utf8'));
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

async function main() {
  if (process.env.BENCH_DATABASE_URL) {
    process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
    process.env.E2E_DATABASE = 'mariadb';
  }
  const database = await createTestDatabase();
  // Seeded through the test app on the same database, then closed: the server runs alone.
  const seed = await createTestApp({ database });
  const factory = factories(seed);
  const admin = await sessionCookie(seed, await factory.superAdmin());
  const tenant = await factory.tenant();
  const owner = await sessionCookie(seed, await factory.member(tenant.id, { role: 'owner' }));
  for (let i = 0; i < 50; i++) await factory.tenant();
  const invitation = await factory.invitation({ tenantId: tenant.id });
  const middleCursor = await seedAuditEvents(seed.dataSource, tenant.id);
  await seed.close();

  const server = await startServerProcess({
    DATABASE_URL: database.url,
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    INVITE_RATE_LIMIT: '1000000',
  });
  try {
    console.log(`${SECONDS} s per scenario, ${CONCURRENCY} connections, database ${database.url.split(':')[0]}, ${AUDIT_EVENTS} audit events`);
    const rssBefore = await rssOf(server.child.pid!);
    const scenarios: Scenario[] = [
      { name: 'GET /api/invitations/{token}', expect: 200, method: 'GET', path: `/api/invitations/${invitation.id}` },
      { name: 'GET /api/admin/tenants (51 rows)', expect: 200, method: 'GET', path: '/api/admin/tenants', cookie: admin },
      { name: 'GET /api/admin/super-admins', expect: 200, method: 'GET', path: '/api/admin/super-admins', cookie: admin },
      {
        name: 'POST /api/org/invite',
        expect: 200,
        method: 'POST',
        path: '/api/org/invite',
        cookie: owner,
        body: (i) => ({ email: `bench-${i}@example.com`, role: 'member' }),
      },
      { name: 'POST /api/org/invite (invalid body)', expect: 400, method: 'POST', path: '/api/org/invite', body: () => ({ email: 'x' }) },
      // One page of the audit trail, AUDIT_EVENTS rows in the table: first, deep and filtered pages.
      { name: 'GET /api/admin/audit-events', expect: 200, method: 'GET', path: '/api/admin/audit-events', cookie: admin },
      { name: 'GET /api/admin/audit-events (deep page)', expect: 200, method: 'GET', path: `/api/admin/audit-events?cursor=${middleCursor}`, cookie: admin },
      { name: 'GET /api/admin/audit-events?type&actorId', expect: 200, method: 'GET', path: '/api/admin/audit-events?type=user.deleted&actorId=actor-6', cookie: admin },
      { name: 'GET /api/org/audit-events', expect: 200, method: 'GET', path: '/api/org/audit-events', cookie: owner },
    ];
    for (const scenario of scenarios) await run(server.url, scenario);
    console.log(`server memory: rss ${mb(rssBefore)} at start -> ${mb(await rssOf(server.child.pid!))} after the run`);
  } finally {
    await server.kill();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
