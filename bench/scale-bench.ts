/**
 * Scale benchmark (docs/benchmark.md "At scale"): each route's latency on a small tenant
 * and on a big one, side by side, on a database of an operator with a large customer, and the
 * server's peak RSS, eight full tenant lists at once included.
 *   npm run bench:scale                                   # MariaDB at full size, then SQLite at a tenth
 *   BENCH_DATABASES=mariadb npm run bench:scale           # one of them (mariadb, sqlite)
 *   BENCH_SAMPLES=50 npm run bench:scale                  # requests per route and tenant (default 100)
 *   BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306 npm run bench:scale
 *   BENCH_SEED_ONLY=1 BENCH_KEEP=1 npm run bench:scale      # seed, keep the database (to EXPLAIN on it), measure nothing
 * Sizes (MariaDB; SQLite a tenth of each): 200,000 tenants (1 in 100 suspended) besides the two
 * measured, the big one with 100,000 members, 200,000 invitations (100,000 pending) and 800,000
 * audit events, 1,000,000 audit events in all, 200,000 sent e-mails in the outbox, 1,000,000 sessions
 * (bench/support/scale-sessions.ts); the small one
 * with 10 members, 20 invitations and 60 events. Seeded with INSERT … SELECT over a sequence (in
 * minutes), in a database made for the run and dropped after it. Runs the build (`npm run build`
 * first) as `npm start` does, with its heap limit. Requests one at a time (the latency of a route,
 * not the throughput of the machine); bulk requests each invite 100 new addresses.
 * Numbers depend on the machine: compare runs on the same one, never assert on them in tests.
 */
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { portalToken } from '../test/support/portal-token';
import { parseConfig } from '../src/config/app-config';
import { dataSourceOptions } from '../src/database/data-source-options';
import { IdentityUser } from '../src/identity/identity-store';
import { builtCommand, startServerProcess } from '../test/support/server-process';
import {
  createDatabase,
  Dialect,
  percentile,
  prepareSqliteSeed,
  SeedSql,
  seedSql,
  startNodeOptions,
  T0,
} from './support/seed-database';
import { measuredSessionCookie, reportPurgeBatch, sessionSeedStatements } from './support/scale-sessions';
const DATABASES = (process.env.BENCH_DATABASES ?? 'mariadb,sqlite').split(',').map((name) => name.trim()) as Dialect[];
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const BULK_SAMPLES = Math.max(5, Math.round(SAMPLES / 4));
const MYSQL_SERVER = (process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');
const SECRET = 'bench-scale-secret-at-least-32-characters-long';
const MB = 1024 * 1024;

/** The MariaDB sizes; SQLite takes a tenth of each. */
const FULL = { tenants: 200_000, members: 100_000, invitations: 200_000, events: 1_000_000, sessions: 1_000_000 };

interface Sizes {
  tenants: number;
  members: number;
  invitations: number;
  /** Audit events in all: one `tenant.created` per tenant, the rest the big tenant's. */
  events: number;
  /** Sessions, of the big tenant's members (bench/support/scale-sessions.ts). */
  sessions: number;
}

const BIG = 'tenant-big';
const SMALL = 'tenant-small';

/** The seed's statements, in order: what each writes, and the SQL. */
function seedStatements(sql: SeedSql, sizes: Sizes): [string, string][] {
  const { seq, cat, at, key, pad } = sql;
  const tenantEvents = sizes.tenants + 2;
  const bigEvents = sizes.events - tenantEvents - 60;
  const third = Math.floor(bigEvents / 4);
  const inv = (tenant: string, count: number, prefix: string): [string, string] => [
    `${count} invitations of ${tenant}`,
    'INSERT INTO tenant_invitations (id, tenant_id, email, email_key, role, status, expires_at, invited_by, created_at) ' +
      `SELECT ${cat(`'${prefix}-inv-'`, pad('seq', 7))}, '${tenant}', ${cat(`'invitee-'`, 'seq', `'@${prefix}.example'`)}, ` +
      `${key(cat(`'invitee-'`, 'seq', `'@${prefix}.example'`))}, 'member', ` +
      `CASE WHEN seq <= ${count / 2} THEN 'pending' WHEN seq <= ${(count * 3) / 4} THEN 'accepted' ELSE 'revoked' END, ` +
      `${at('86400 * 400')}, '${prefix}-member-1', ${at('seq')} FROM ${seq(count)}`,
  ];
  const members = (tenant: string, count: number, prefix: string): [string, string] => [
    `${count} members of ${tenant}`,
    'INSERT INTO users (id, email, email_key, user_type, tenant_id, role, created_at) ' +
      `SELECT ${cat(`'${prefix}-member-'`, 'seq')}, ${cat(`'member-'`, 'seq', `'@${prefix}.example'`)}, ` +
      `${key(cat(`'member-'`, 'seq', `'@${prefix}.example'`))}, 'org', '${tenant}', ` +
      `CASE WHEN seq = 1 THEN 'owner' WHEN seq <= 100 THEN 'admin' ELSE 'member' END, ${at('seq')} FROM ${seq(count)}`,
  ];
  /** `count` events of `type` for `tenant`, numbered from `from`. */
  const events = (tenant: string, type: string, count: number, from: number, target: string): [string, string] => [
    `${count} ${type} events of ${tenant}`,
    'INSERT INTO audit_events (id, type, occurred_at, tenant_id, actor_id, actor_email, target_type, target_id, target_email, data) ' +
      `SELECT ${cat(`'ev-${tenant}-'`, pad(`seq + ${from}`, 8))}, '${type}', ${at(`seq + ${from}`)}, '${tenant}', ` +
      `'${tenant}-actor', NULL, '${target}', ${target === 'invitation' ? 'NULL' : cat(`'user-'`, 'seq')}, ` +
      `${cat(`'invitee-'`, 'seq', `'@example.com'`)}, '{"role":"member"}' FROM ${seq(count)}`,
  ];
  return [
    [
      `${sizes.tenants} tenants`,
      'INSERT INTO tenants (id, name, type, status, created_at) ' +
        `SELECT ${cat(`'tenant-'`, pad('seq', 7))}, ${cat(`'Tenant '`, 'seq')}, 'business', ` +
        `CASE WHEN seq % 100 = 0 THEN 'suspended' ELSE 'active' END, ${at('seq')} FROM ${seq(sizes.tenants)}`,
    ],
    [
      'the big and the small tenant',
      'INSERT INTO tenants (id, name, type, status, created_at) ' +
        `VALUES ('${BIG}', 'Big Co', 'business', 'active', ${at('0')}), ('${SMALL}', 'Small Co', 'business', 'active', ${at('1')})`,
    ],
    [
      'a super-admin',
      "INSERT INTO users (id, email, platform_role, created_at) VALUES ('root', 'root@bench.example', 'super_admin', " +
        `${at('0')})`,
    ],
    members(BIG, sizes.members, 'big'),
    members(SMALL, 10, 'small'),
    inv(BIG, sizes.invitations, 'big'),
    inv(SMALL, 20, 'small'),
    [
      `${sizes.invitations} sent e-mails of the outbox`,
      'INSERT INTO invitation_email_outbox (id, status, attempts, next_attempt_at, created_at, invitation_id, payload, sent_at) ' +
        `SELECT ${cat(`'mail-'`, pad('seq', 7))}, 'sent', 1, ${at('seq')}, ${at('seq')}, ${cat(`'big-inv-'`, pad('seq', 7))}, ` +
        `'{}', ${at('seq')} FROM ${seq(sizes.invitations)}`,
    ],
    [
      `${tenantEvents} tenant.created events`,
      'INSERT INTO audit_events (id, type, occurred_at, tenant_id, actor_id, actor_email, target_type, target_id, target_email, data) ' +
        `SELECT ${cat(`'ev-tenant-'`, pad('seq', 8))}, 'tenant.created', ${at('seq')}, ${cat(`'tenant-'`, pad('seq', 7))}, ` +
        `'root', 'root@bench.example', 'tenant', ${cat(`'tenant-'`, pad('seq', 7))}, NULL, '{}' FROM ${seq(sizes.tenants)}`,
    ],
    [
      'the two tenants’ tenant.created events',
      'INSERT INTO audit_events (id, type, occurred_at, tenant_id, actor_id, actor_email, target_type, target_id, target_email, data) ' +
        `VALUES ('ev-created-big', 'tenant.created', ${at('0')}, '${BIG}', 'root', NULL, 'tenant', '${BIG}', NULL, '{}'), ` +
        `('ev-created-small', 'tenant.created', ${at('1')}, '${SMALL}', 'root', NULL, 'tenant', '${SMALL}', NULL, '{}')`,
    ],
    events(BIG, 'invitation.created', third, 0, 'invitation'),
    events(BIG, 'invitation.accepted', third, third, 'invitation'),
    events(BIG, 'member.joined', third, 2 * third, 'user'),
    events(BIG, 'member.role_changed', bigEvents - 3 * third - 51, 3 * third, 'user'),
    events(BIG, 'member.removed', 51, bigEvents - 51, 'user'),
    events(SMALL, 'invitation.created', 20, 0, 'invitation'),
    events(SMALL, 'invitation.accepted', 15, 20, 'invitation'),
    events(SMALL, 'member.joined', 10, 35, 'user'),
    events(SMALL, 'member.removed', 5, 45, 'user'),
    events(SMALL, 'member.role_changed', 10, 50, 'user'),
    ...sessionSeedStatements(sql, sizes.sessions, sizes.members),
  ];
}

/** Migrates and seeds; the time it took. */
async function seed(dialect: Dialect, url: string, sizes: Sizes): Promise<number> {
  const started = Date.now();
  const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url, DB_MIGRATIONS_RUN: 'false' });
  const dataSource = new DataSource(dataSourceOptions(config));
  await dataSource.initialize();
  await dataSource.runMigrations();
  if (dialect === 'sqlite') prepareSqliteSeed(dataSource, sizes.events);
  for (const [what, sql] of seedStatements(seedSql(dialect), sizes)) {
    const step = Date.now();
    await dataSource.query(sql);
    console.log(`  seeded ${what} in ${Date.now() - step} ms`);
  }
  if (dialect === 'sqlite') await dataSource.query('DROP TABLE bench_seq');
  await dataSource.query(
    dialect === 'sqlite' ? 'ANALYZE' : 'ANALYZE TABLE tenants, users, tenant_invitations, audit_events, sessions',
  );
  await dataSource.destroy();
  return Date.now() - started;
}

function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

interface Timing {
  p50: number;
  p95: number;
  statuses: Set<number>;
}

/** `samples` requests one after the other; each body read to its end. */
async function time(samples: number, request: (i: number) => Promise<Response>): Promise<Timing> {
  const ms: number[] = [];
  const statuses = new Set<number>();
  for (let i = 0; i < samples + 3; i++) {
    const started = process.hrtime.bigint();
    const res = await request(i);
    await res.arrayBuffer();
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    statuses.add(res.status);
    if (i >= 3) ms.push(elapsed); // three to warm up
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), statuses };
}

const fmt = (timing: Timing) =>
  `${timing.p50.toFixed(1).padStart(7)} ${timing.p95.toFixed(1).padStart(7)}` +
  ([...timing.statuses].some((status) => status >= 300) ? ` (status ${[...timing.statuses].join(',')})` : '');

async function measure(dialect: Dialect, url: string, sizes: Sizes): Promise<void> {
  const env = {
    DATABASE_URL: url,
    AUTH_JWT_SECRET: SECRET,
    NODE_ENV: 'production',
    IDENTITY_STORE: 'local',
    DB_MIGRATIONS_RUN: 'false',
    INVITE_RATE_LIMIT: '1000000',
    LOG_LEVEL: 'warn',
  };
  const server = await startServerProcess(env, {
    command: builtCommand([process.execPath, ...startNodeOptions(), 'dist/src/main.js']),
  });
  const pid = server.child.pid!;
  try {
    const cookieOf = (user: Partial<IdentityUser> & { id: string; email: string }) =>
      `id_token=${portalToken({ platformRole: null, userType: null, tenantId: null, role: null, ...user }, SECRET, 7_200)}`;
    const owner = (tenant: string, prefix: string) =>
      cookieOf({
        id: `${prefix}-member-1`,
        email: `member-1@${prefix}.example`,
        userType: 'org',
        tenantId: tenant,
        role: 'owner',
      });
    const tenants = { small: owner(SMALL, 'small'), big: owner(BIG, 'big') };
    const sidSessions = { small: measuredSessionCookie('small', SECRET), big: measuredSessionCookie('big', SECRET) };
    const root = cookieOf({ id: 'root', email: 'root@bench.example' });
    const get = (path: string, cookie: string) => () => fetch(server.url + path, { headers: { cookie } });

    /** Routes measured on each tenant: path, or a request of its own. */
    const orgRoutes: [string, (cookie: string, tenant: 'small' | 'big') => (i: number) => Promise<Response>][] = [
      ['GET /api/org/members', (cookie) => get('/api/org/members', cookie)],
      ['GET /api/org/people', (cookie) => get('/api/org/people', cookie)],
      ['GET /api/org/invitations', (cookie) => get('/api/org/invitations', cookie)],
      ...(['pending', 'expired', 'accepted', 'revoked'] as const).map((status): (typeof orgRoutes)[number] => [
        `GET /api/org/invitations?status=${status}`,
        (cookie) => get(`/api/org/invitations?status=${status}`, cookie),
      ]),
      ['GET /api/org/audit-events', (cookie) => get('/api/org/audit-events', cookie)],
      ...['tenant.created', 'member.removed', 'invitation.created'].map((type): (typeof orgRoutes)[number] => [
        `GET /api/org/audit-events?type=${type}`,
        (cookie) => get(`/api/org/audit-events?type=${type}`, cookie),
      ]),
      ['GET /api/admin/tenants/{id}', (_, tenant) => get(`/api/admin/tenants/${tenant === 'big' ? BIG : SMALL}`, root)],
    ];
    console.log(`\n${'route'.padEnd(48)}   small p50     p95 |     big p50     p95  (ms)`);
    for (const [name, request] of orgRoutes) {
      const small = await time(SAMPLES, request(tenants.small, 'small'));
      const big = await time(SAMPLES, request(tenants.big, 'big'));
      console.log(`${name.padEnd(48)} ${fmt(small)} | ${fmt(big)}`);
    }
    let bulkRun = 0;
    const bulk = (cookie: string) => () => {
      const run = bulkRun++;
      return fetch(`${server.url}/api/org/invitations/bulk`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({
          invitations: Array.from({ length: 100 }, (_, i) => ({
            email: `bulk-${run}-${i}@new.example`,
            role: 'member',
          })),
        }),
      });
    };
    const sessionRoutes: [string, string, Record<'small' | 'big', string>][] = [
      ["GET /api/org/members, today's token", '/api/org/members', tenants],
      ['GET /api/org/members, a sid session', '/api/org/members', sidSessions],
      ['GET /api/me/sessions, a sid session', '/api/me/sessions', sidSessions],
    ];
    for (const [name, path, cookies] of sessionRoutes) {
      const small = await time(SAMPLES, get(path, cookies.small));
      const big = await time(SAMPLES, get(path, cookies.big));
      console.log(`${name.padEnd(48)} ${fmt(small)} | ${fmt(big)}`);
    }
    const bulkSmall = await time(BULK_SAMPLES, bulk(tenants.small));
    const bulkBig = await time(BULK_SAMPLES, bulk(tenants.big));
    console.log(`${'POST /api/org/invitations/bulk (100 new rows)'.padEnd(48)} ${fmt(bulkSmall)} | ${fmt(bulkBig)}`);

    // Admin routes: a first page against a page deep in the list (the cursor of its middle).
    const middleCursor = (key: string[]) => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
    const middle = `tenant-${String(Math.floor(sizes.tenants / 2)).padStart(7, '0')}`;
    const middleAt = new Date(Date.parse(`${T0.replace(' ', 'T')}Z`) + (sizes.tenants / 2) * 1000).toISOString();
    const middleSuspended = `tenant-${String(Math.floor(sizes.tenants / 200) * 100).padStart(7, '0')}`;
    const middleSuspendedAt = new Date(
      Date.parse(`${T0.replace(' ', 'T')}Z`) + Math.floor(sizes.tenants / 200) * 100 * 1000,
    ).toISOString();
    const adminRoutes: [string, string, string][] = [
      [
        'GET /api/admin/tenants?limit=100',
        '/api/admin/tenants?limit=100',
        `/api/admin/tenants?limit=100&cursor=${middleCursor([middleAt, middle])}`,
      ],
      [
        'GET /api/admin/tenants?status=suspended&limit=100',
        '/api/admin/tenants?status=suspended&limit=100',
        `/api/admin/tenants?status=suspended&limit=100&cursor=${middleCursor([middleSuspendedAt, middleSuspended])}`,
      ],
      ['GET /api/admin/audit-events', '/api/admin/audit-events', '/api/admin/audit-events?until=2026-01-05T00:00:00Z'],
      [
        'GET /api/admin/audit-events?type=tenant.created',
        '/api/admin/audit-events?type=tenant.created',
        '/api/admin/audit-events?type=tenant.created&until=2026-01-02T00:00:00Z',
      ],
      [
        'GET /api/admin/audit-events?type=member.removed',
        '/api/admin/audit-events?type=member.removed',
        '/api/admin/audit-events?type=member.removed&until=2026-01-05T00:00:00Z',
      ],
    ];
    console.log(`\n${'admin route'.padEnd(48)}   first p50     p95 |    deep p50     p95  (ms)`);
    for (const [name, first, deep] of adminRoutes) {
      const a = await time(SAMPLES, get(first, root));
      const b = await time(SAMPLES, get(deep, root));
      console.log(`${name.padEnd(48)} ${fmt(a)} | ${fmt(b)}`);
    }

    // The spec's full list (spec 4.3), streamed: alone, then eight at once (two of them reading slowly).
    const before = rssOf(pid);
    const full = await time(Math.max(3, Math.round(SAMPLES / 20)), get('/api/admin/tenants', root));
    const sample = { peak: 0 };
    const sampler = setInterval(() => (sample.peak = Math.max(sample.peak, rssOf(pid).rss)), 20);
    const started = Date.now();
    const concurrent = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const res = await fetch(`${server.url}/api/admin/tenants`, { headers: { cookie: root } });
        let bytes = 0;
        const reader = res.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.length;
          if (i < 2) await new Promise((resolve) => setTimeout(resolve, 1)); // a slow reader
        }
        return { status: res.status, bytes };
      }),
    );
    clearInterval(sampler);
    const live = await fetch(`${server.url}/health/live`).then(
      (res) => res.status,
      () => 0,
    );
    console.log(
      `\nGET /api/admin/tenants (${sizes.tenants + 2} tenants, ${(concurrent[0].bytes / MB).toFixed(1)} MB): ` +
        `p50 ${full.p50.toFixed(0)} ms, p95 ${full.p95.toFixed(0)} ms alone; eight at once (two reading slowly) ` +
        `in ${Date.now() - started} ms, statuses ${[...new Set(concurrent.map((c) => c.status))].join(',')}, ` +
        `bodies ${concurrent.every((c) => c.bytes === concurrent[0].bytes) ? 'identical in size' : 'DIFFERENT'}; ` +
        `server RSS ${(before.rss / MB).toFixed(0)} MB before, peak ${(sample.peak / MB).toFixed(0)} MB during; ` +
        `/health/live after: ${live}`,
    );
    console.log(`server peak RSS over the run (VmHWM): ${(rssOf(pid).peak / MB).toFixed(0)} MB`);
  } finally {
    await server.kill();
  }
}

async function main() {
  for (const dialect of DATABASES) {
    const scale = dialect === 'sqlite' ? 10 : 1;
    const sizes: Sizes = {
      tenants: FULL.tenants / scale,
      members: FULL.members / scale,
      invitations: FULL.invitations / scale,
      events: FULL.events / scale,
      sessions: FULL.sessions / scale,
    };
    console.log(
      `\n== ${dialect}: ${sizes.tenants} tenants, big tenant ${sizes.members} members and ${sizes.invitations} ` +
        `invitations (${sizes.invitations / 2} pending), ${sizes.events} audit events, ${sizes.sessions} sessions`,
    );
    const database = await createDatabase(dialect, 'bench_scale', MYSQL_SERVER);
    try {
      const ms = await seed(dialect, database.url, sizes);
      console.log(`seeded in ${(ms / 1000).toFixed(0)} s`);
      if (!process.env.BENCH_SEED_ONLY) {
        await measure(dialect, database.url, sizes);
        await reportPurgeBatch(database.url, sizes.sessions);
      }
    } finally {
      if (!process.env.BENCH_KEEP) await database.drop();
      else {
        console.log(`kept: ${database.url}`);
        await database.close();
      }
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
