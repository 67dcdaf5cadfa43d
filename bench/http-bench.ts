/**
 * HTTP benchmark: throughput, latency percentiles and memory of the main endpoints, on the real
 * server in its own process over loopback (SQLite by default; BENCH_DATABASE_URL=mysql://…/test
 * for MariaDB, where a fresh database is made and dropped).
 *   npm run bench                      # 5 s per scenario, 20 connections
 *   BENCH_SECONDS=20 BENCH_CONCURRENCY=50 npm run bench
 * Numbers depend on the machine: compare runs on the same one, never assert on them in tests.
 */
import autocannon from 'autocannon';
import { factories, sessionCookie } from '../test/support/factories';
import { startServerProcess } from '../test/support/server-process';
import { createTestApp, TEST_JWT_SECRET } from '../test/support/test-app';
import { createTestDatabase } from '../test/support/test-database';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);

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
  await seed.close();

  const server = await startServerProcess({
    DATABASE_URL: database.url,
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    INVITE_RATE_LIMIT: '1000000',
  });
  try {
    console.log(`${SECONDS} s per scenario, ${CONCURRENCY} connections, database ${database.url.split(':')[0]}`);
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
