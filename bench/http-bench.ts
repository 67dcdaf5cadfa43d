/**
 * HTTP benchmark: throughput, latency percentiles and memory of the main endpoints, on the real
 * app over loopback (SQLite by default; BENCH_DATABASE_URL=mysql://… for MariaDB).
 *   npm run bench                      # 3 000 requests per scenario, 20 at a time
 *   BENCH_REQUESTS=10000 BENCH_CONCURRENCY=50 npm run bench
 * The client shares the process with the server, so figures are a floor, not a ceiling. Numbers
 * depend on the machine: compare runs on the same one, never assert on them in tests.
 */
import { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { factories, sessionCookie } from '../test/support/factories';
import { createTestApp } from '../test/support/test-app';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);

interface Scenario {
  name: string;
  request: (i: number) => { method: string; path: string; body?: unknown; cookie?: string };
  expect: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function run(base: string, scenario: Scenario) {
  const latencies: number[] = [];
  let next = 0;
  let unexpected = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < REQUESTS) {
      const { method, path, body, cookie } = scenario.request(next++);
      const t0 = performance.now();
      const res = await fetch(base + path, {
        method,
        headers: { 'content-type': 'application/json', ...(cookie && { cookie }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.status !== scenario.expect) unexpected++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    [
      scenario.name.padEnd(34),
      `${(latencies.length / seconds).toFixed(0).padStart(6)} req/s`,
      `p50 ${percentile(latencies, 50).toFixed(1)} ms`,
      `p95 ${percentile(latencies, 95).toFixed(1)} ms`,
      `p99 ${percentile(latencies, 99).toFixed(1)} ms`,
      unexpected ? `UNEXPECTED STATUS x${unexpected}` : '',
    ].join('  '),
  );
}

async function main() {
  const env: Record<string, string> = { INVITE_RATE_LIMIT: '1000000' };
  if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  if (process.env.BENCH_DATABASE_URL) process.env.E2E_DATABASE = 'mariadb';
  const t = await createTestApp({ env });
  await t.app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const factory = factories(t);
  const admin = await sessionCookie(t, await factory.superAdmin());
  const tenant = await factory.tenant();
  const owner = await sessionCookie(t, await factory.member(tenant.id, { role: 'owner' }));
  for (let i = 0; i < 50; i++) await factory.tenant();
  const invitations: { id: string }[] = [];
  for (let i = 0; i < 200; i++) invitations.push(await factory.invitation({ tenantId: tenant.id }));

  console.log(`${REQUESTS} requests per scenario, ${CONCURRENCY} at a time, database ${t.config.database.type}`);
  const rssBefore = process.memoryUsage().rss;
  const scenarios: Scenario[] = [
    { name: 'GET /api/invitations/{token}', expect: 200, request: (i) => ({ method: 'GET', path: `/api/invitations/${invitations[i % 200].id}` }) },
    { name: 'GET /api/admin/tenants (51 rows)', expect: 200, request: () => ({ method: 'GET', path: '/api/admin/tenants', cookie: admin }) },
    { name: 'GET /api/admin/super-admins', expect: 200, request: () => ({ method: 'GET', path: '/api/admin/super-admins', cookie: admin }) },
    {
      name: 'POST /api/org/invite',
      expect: 200,
      request: (i) => ({ method: 'POST', path: '/api/org/invite', cookie: owner, body: { email: `bench-${i}@example.com`, role: 'member' } }),
    },
    { name: 'POST /api/org/invite (invalid body)', expect: 400, request: () => ({ method: 'POST', path: '/api/org/invite', body: { email: 'x' } }) },
  ];
  for (const scenario of scenarios) await run(base, scenario);
  const memory = process.memoryUsage();
  console.log(`memory: rss ${mb(rssBefore)} -> ${mb(memory.rss)}, heap used ${mb(memory.heapUsed)}`);
  await t.close();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
