/**
 * HTTP benchmark: throughput, latency percentiles and memory of the main endpoints, on the real
 * server in its own process over loopback (SQLite by default; BENCH_DATABASE_URL=mysql://…/test
 * for MariaDB, where a fresh database is made and dropped).
 *   npm run bench                      # 5 s per scenario, 20 connections
 *   BENCH_SECONDS=20 BENCH_CONCURRENCY=50 npm run bench
 *   BENCH_AUDIT_EVENTS=100000 npm run bench   # fewer audit events to seed (default 1,000,000)
 *   BENCH_SCENARIOS=people npm run bench      # only these groups (core, audit, people; default all): only their data is seeded
 * Numbers depend on the machine: compare runs on the same one, never assert on them in tests.
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { encodeAuditCursor } from '../src/audit/audit-cursor';
import { AUDIT_EVENT_TYPES, toAuditEventRow } from '../src/audit/audit-event';
import { emailKey } from '../src/common/email-comparison';
import { encodeCursor } from '../src/common/paging';
import { AuditEventEntity, InvitationEntity, UserEntity } from '../src/database/entities';
import { factories, sessionCookie } from '../test/support/factories';
import { startServerProcess } from '../test/support/server-process';
import { createTestApp, TEST_JWT_SECRET, TestApp } from '../test/support/test-app';
import { createTestDatabase } from '../test/support/test-database';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const AUDIT_EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const GROUPS = ['core', 'audit', 'people'] as const;
type Group = (typeof GROUPS)[number];
const SELECTED = new Set(process.env.BENCH_SCENARIOS ? process.env.BENCH_SCENARIOS.split(',').map((group) => group.trim()) : GROUPS);
const selected = (group: Group) => SELECTED.has(group);

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
/** With `warmUp`, 2 s and nothing printed. */
async function run(url: string, scenario: Scenario, warmUp = false) {
  let i = 0;
  const result = await autocannon({
    url: url + scenario.path,
    method: scenario.method,
    connections: CONCURRENCY,
    duration: warmUp ? 2 : SECONDS,
    headers: { 'content-type': 'application/json', ...(scenario.cookie && { cookie: scenario.cookie }) },
    ...(scenario.body && {
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(scenario.body!(i++)) }) }],
    }),
  });
  if (warmUp) return;
  const unexpected = result.requests.total - (result.statusCodeStats?.[String(scenario.expect) as '200']?.count ?? 0);
  console.log(
    [
      scenario.name.padEnd(50),
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

/**
 * A tenant for GET /api/org/people: `members` users (the owner among them) and `invitations`
 * invitations, a tenth of them accepted and a tenth revoked (left out of the list), some expired,
 * on e-mails that interleave with the members'. Inserted in batches, not through the API. Gives
 * the owner's cookie and the cursor of the member in the middle of the list, for a deep page.
 */
async function seedPeople(seed: TestApp, members: number, invitations: number): Promise<{ cookie: string; middleCursor: string }> {
  const factory = factories(seed);
  const tenant = await factory.tenant();
  const label = tenant.id.slice(0, 8);
  const owner = await factory.member(tenant.id, { role: 'owner', email: `person-0-owner@${label}.example` });
  const now = new Date();
  const statuses = ['pending', 'pending', 'pending', 'pending', 'pending', 'pending', 'expired', 'pending', 'accepted', 'revoked'] as const;
  for (let from = 1; from < members; from += 500) {
    const rows: UserEntity[] = [];
    for (let i = from; i < Math.min(from + 500, members); i++) {
      const email = `person-${i * 3}@${label}.example`;
      rows.push({ id: randomUUID(), email, emailKey: emailKey(email), platformRole: null, userType: 'org', tenantId: tenant.id, role: 'member', createdAt: now });
    }
    await seed.dataSource.getRepository(UserEntity).insert(rows);
  }
  for (let from = 0; from < invitations; from += 500) {
    const rows: InvitationEntity[] = [];
    for (let i = from; i < Math.min(from + 500, invitations); i++) {
      const status = statuses[i % statuses.length];
      rows.push({
        id: randomUUID(),
        tenantId: tenant.id,
        email: `person-${Math.floor((i * 3) / 2) + 1}@${label}.example`,
        role: 'member',
        status,
        expiresAt: new Date(now.getTime() + (status === 'expired' ? -1 : 7) * 24 * 3600 * 1000),
        invitedBy: owner.id,
        createdAt: now,
      });
    }
    await seed.dataSource.getRepository(InvitationEntity).insert(rows);
  }
  const [middle] = await seed.identity.listTenantMembers(tenant.id, { email: `person-${Math.floor(members / 2) * 3}@${label}.example`, id: '' }, 1);
  return { cookie: await sessionCookie(seed, owner), middleCursor: encodeCursor([middle.email, 'member', middle.id]) };
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
  const middleCursor = selected('audit') ? await seedAuditEvents(seed.dataSource, tenant.id) : '';
  const smallTenant = selected('people') ? await seedPeople(seed, 100, 200) : undefined;
  const largeTenant = selected('people') ? await seedPeople(seed, 10_000, 20_000) : undefined;
  await seed.close();

  const server = await startServerProcess({
    DATABASE_URL: database.url,
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    INVITE_RATE_LIMIT: '1000000',
  });
  try {
    const audit = selected('audit') ? `, ${AUDIT_EVENTS} audit events` : '';
    console.log(`${SECONDS} s per scenario, ${CONCURRENCY} connections, database ${database.url.split(':')[0]}${audit}`);
    const rssBefore = await rssOf(server.child.pid!);
    const scenarios: (Scenario & { group: Group })[] = [
      { group: 'core', name: 'GET /api/invitations/{token}', expect: 200, method: 'GET', path: `/api/invitations/${invitation.id}` },
      { group: 'core', name: 'GET /api/admin/tenants (51 rows)', expect: 200, method: 'GET', path: '/api/admin/tenants', cookie: admin },
      { group: 'core', name: 'GET /api/admin/super-admins', expect: 200, method: 'GET', path: '/api/admin/super-admins', cookie: admin },
      {
        group: 'core',
        name: 'POST /api/org/invite',
        expect: 200,
        method: 'POST',
        path: '/api/org/invite',
        cookie: owner,
        body: (i) => ({ email: `bench-${i}@example.com`, role: 'member' }),
      },
      { group: 'core', name: 'POST /api/org/invite (invalid body)', expect: 400, method: 'POST', path: '/api/org/invite', body: () => ({ email: 'x' }) },
      // One page of the audit trail, AUDIT_EVENTS rows in the table: first, deep and filtered pages.
      { group: 'audit', name: 'GET /api/admin/audit-events', expect: 200, method: 'GET', path: '/api/admin/audit-events', cookie: admin },
      { group: 'audit', name: 'GET /api/admin/audit-events (deep page)', expect: 200, method: 'GET', path: `/api/admin/audit-events?cursor=${middleCursor}`, cookie: admin },
      { group: 'audit', name: 'GET /api/admin/audit-events?type&actorId', expect: 200, method: 'GET', path: '/api/admin/audit-events?type=user.deleted&actorId=actor-6', cookie: admin },
      { group: 'audit', name: 'GET /api/org/audit-events', expect: 200, method: 'GET', path: '/api/org/audit-events', cookie: owner },
      // A page of 50 people (members and open invitations merged): first and middle pages, on a small and a large tenant.
      ...(smallTenant && largeTenant
        ? ([
            ['100 + 200', smallTenant],
            ['10,000 + 20,000', largeTenant],
          ] as const).flatMap(([size, people]) => [
            { group: 'people' as const, name: `GET /api/org/people (${size})`, expect: 200, method: 'GET' as const, path: '/api/org/people', cookie: people.cookie },
            {
              group: 'people' as const,
              name: `GET /api/org/people (${size}, deep page)`,
              expect: 200,
              method: 'GET' as const,
              path: `/api/org/people?cursor=${people.middleCursor}`,
              cookie: people.cookie,
            },
          ])
        : []),
    ];
    console.log(`groups: ${[...SELECTED].join(', ')}`);
    const chosen = scenarios.filter((scenario) => selected(scenario.group));
    // Unreported: the first scenario would otherwise pay for the JIT and the cold caches.
    await run(server.url, chosen[0], true);
    for (const scenario of chosen) await run(server.url, scenario);
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
