/**
 * Memory under hostile traffic (issue 9 part 3 item 7): the real server in its own process
 * (SQLite, local identity store, in-memory rate-limit counters, logs at info) gets SOAK_REQUESTS
 * (10,000) requests in a mix of forged cookies, bad bodies, over-limit invites and invites by
 * fresh users, SOAK_CONCURRENCY (10) at a time. It prints the server's resident memory and V8
 * heap in use after a warm-up, right after the soak, and after a pause.
 *   NODE_ENV=test npx ts-node --transpile-only bench/memory-soak.ts
 *   SOAK_REQUESTS=40000 …                               # longer
 *   SOAK_NODE_OPTIONS=--max-old-space-size=160 …        # the server with a smaller V8 heap
 *   SOAK_HEAP_SNAPSHOTS=/tmp/soak …   # heap snapshots to compare (Chrome DevTools, "Comparison")
 * Memory depends on the machine and Node version: compare runs on the same one, never assert on
 * them in tests.
 */
import { request as httpRequest, Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { sign } from 'jsonwebtoken';
import { UserEntity } from '../src/database/entities';
import { factories, sessionCookie } from '../test/support/factories';
import { startServerProcess } from '../test/support/server-process';
import { createTestApp, TEST_JWT_SECRET } from '../test/support/test-app';
import { createTestDatabase } from '../test/support/test-database';

const REQUESTS = Number(process.env.SOAK_REQUESTS ?? 10_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 10);
const WARM_UP = 1_000;
/** A directory: the server writes a heap snapshot there after the warm-up and at the end, to compare. */
const SNAPSHOTS = process.env.SOAK_HEAP_SNAPSHOTS;

interface Shot {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const random = () => Math.random().toString(36).slice(2);

/** One request; the answer is read and dropped. Connection errors (a closed 413) count as answers. */
function fire(port: number, agent: Agent, shot: Shot): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: shot.method, path: shot.path, headers: shot.headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(shot.body);
  });
}

interface Memory {
  rss: number;
  heap: number;
  heapTotal: number;
  external: number;
}

/** The server's RSS (from /proc) and V8 heap in use (from its own /metrics). */
async function memoryOf(pid: number, url: string): Promise<Memory> {
  const status = await import('node:fs/promises').then((fs) => fs.readFile(`/proc/${pid}/status`, 'utf8'));
  const metrics = await (await fetch(`${url}/metrics`)).text();
  return {
    rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024,
    heap: Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics)![1]),
    heapTotal: Number(/^nodejs_heap_size_total_bytes (\S+)$/m.exec(metrics)![1]),
    external: Number(/^nodejs_external_memory_bytes (\S+)$/m.exec(metrics)![1]),
  };
}

async function main() {
  const database = await createTestDatabase();
  const seed = await createTestApp({ database });
  const factory = factories(seed);
  const tenant = await factory.tenant();
  const limited = await factory.member(tenant.id, { role: 'owner' });
  const limitedCookie = await sessionCookie(seed, limited);
  const member = await factory.member(tenant.id, { role: 'member' });
  // One fresh owner per invite-by-a-fresh-user request: each is a new rate-limit key.
  const freshCount = Math.ceil((REQUESTS + WARM_UP) / 8);
  const fresh = Array.from({ length: freshCount }, (_, i) => ({
    id: `fresh-${i}`,
    email: `fresh-${i}@example.com`,
    platformRole: null,
    userType: 'org',
    tenantId: tenant.id,
    role: 'owner',
    createdAt: new Date(),
  }));
  for (let i = 0; i < fresh.length; i += 500)
    await seed.dataSource.getRepository(UserEntity).insert(fresh.slice(i, i + 500));
  const freshCookies = await Promise.all(fresh.map((user) => sessionCookie(seed, { ...user })));
  await seed.close();

  const server = await startServerProcess({
    DATABASE_URL: database.url,
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'info',
    INVITE_RATE_LIMIT: '3',
    NODE_OPTIONS: [
      process.env.SOAK_NODE_OPTIONS,
      SNAPSHOTS && `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOTS}`,
    ]
      .filter(Boolean)
      .join(' '),
  });
  const json = { 'content-type': 'application/json' };
  const shots: ((i: number) => Shot)[] = [
    () => ({
      method: 'GET',
      path: '/api/admin/tenants',
      headers: { cookie: `id_token=${random()}.${random()}.${random()}` },
    }),
    () => ({
      method: 'POST',
      path: '/api/org/invite',
      headers: {
        ...json,
        cookie: `id_token=${sign({ sub: random(), token_use: 'id', 'custom:role': 'owner' }, 'forged-key', { expiresIn: 60 })}`,
      },
      body: '{"email":"a@example.com","role":"member"}',
    }),
    () => ({
      method: 'GET',
      path: '/api/admin/super-admins',
      headers: { cookie: `CognitoIdentityServiceProvider.${random()}.LastAuthUser=${random()}%40x; id_token=%E0%A4%A` },
    }),
    () => ({ method: 'POST', path: '/api/org/invite', headers: json, body: '{"email": "a@example.com", "role": ' }),
    () => ({
      method: 'POST',
      path: '/api/admin/tenants',
      headers: json,
      body: `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    }),
    () => ({
      method: 'POST',
      path: '/api/org/invite',
      headers: { ...json, cookie: limitedCookie },
      body: JSON.stringify({ email: `x${random()}@example.com`, role: 'member' }),
    }),
    (i) => ({
      method: 'POST',
      path: '/api/org/invite',
      headers: { ...json, cookie: freshCookies[Math.floor(i / 8)] },
      body: JSON.stringify({ email: member.email, role: 'member' }),
    }),
    () => ({
      method: 'POST',
      path: '/api/org/invite',
      headers: json,
      body: JSON.stringify({ email: 'x'.repeat(120 * 1024), role: 'member' }),
    }),
  ];
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses = new Map<number, number>();
  let next = 0;
  const soak = async (count: number) => {
    const end = next + count;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < end) {
          const i = next++;
          const status = await fire(server.port, agent, shots[i % shots.length](i));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
  };
  const settled = async () => {
    await sleep(2_000);
    if (SNAPSHOTS) {
      process.kill(server.child.pid!, 'SIGUSR2');
      await sleep(15_000); // the server is busy writing it
    }
    return memoryOf(server.child.pid!, server.url);
  };
  const report = (when: string, memory: Memory) =>
    console.log(
      `${when.padEnd(34)} rss ${mb(memory.rss)}, V8 heap ${mb(memory.heap)} used of ${mb(memory.heapTotal)}, external ${mb(memory.external)}`,
    );
  try {
    await soak(WARM_UP);
    report(`after ${WARM_UP} warm-up requests`, await settled());
    const rounds = 4;
    for (let round = 1; round <= rounds; round++) {
      await soak(REQUESTS / rounds);
      report(`after ${(round * REQUESTS) / rounds} hostile requests`, await memoryOf(server.child.pid!, server.url));
    }
    report('2 s later', await settled());
    console.log(`answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);
  } finally {
    agent.destroy();
    await server.kill();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
