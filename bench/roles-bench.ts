/**
 * Roles benchmark (docs/benchmark.md, "Custom roles"): the cost of the permission check and of a
 * guarded org route on an organisation with 25 custom roles and 100,000 members (each member but
 * one holding two roles), against today's guarded route.
 *   npm run bench:roles                                   # MariaDB, then SQLite
 *   BENCH_DATABASES=sqlite npm run bench:roles            # one of them (mariadb, sqlite)
 *   BENCH_BASELINE=/path/to/built/checkout npm run bench:roles   # that build too, on the same data
 *   BENCH_SAMPLES=300 BENCH_ROUNDS=3 npm run bench:roles
 * Requests one at a time (the latency of a route, not the throughput of the machine), the scenarios
 * taking turns request by request, after 200 of each to warm up; p50 and p95 of the time to the
 * last byte, per round. The builds take turns round by round, in alternating order, on one seeded
 * database, so that both meet the same machine. Runs the builds (`npm run build` first) as
 * `npm start` does, with its heap limit. A baseline build without the role tables answers only
 * the routes that it has. Numbers depend on the machine: compare runs on the same one, never
 * assert on them in tests.
 */
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { portalToken } from '../test/support/portal-token';
import { parseConfig } from '../src/config/app-config';
import { dataSourceOptions } from '../src/database/data-source-options';
import { IdentityUser } from '../src/identity/identity-store';
import { ROOT, startServerProcess } from '../test/support/server-process';
import {
  Dialect,
  percentile,
  prepareSqliteSeed,
  SeedSql,
  runOnEach,
  seedSql,
  startNodeOptions,
} from './support/seed-database';

const DATABASES = (process.env.BENCH_DATABASES ?? 'mariadb,sqlite').split(',').map((name) => name.trim()) as Dialect[];
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BASELINE = process.env.BENCH_BASELINE;
const MYSQL_SERVER = (process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');
const SECRET = 'bench-roles-secret-at-least-32-characters-long';
const MEMBERS = 100_000;
const ROLES = 25;
const TENANT = 'tenant-roles';
/** Members: 1 the owner, 2–100 admins, the rest members; these three have roles of their own. */
const RECRUITER = 500; // role-01 (invitations:create) beside two others
const LACKING = 1000; // two roles, neither with invitations:create
const PLAIN = MEMBERS - 1; // no custom role

/** The permissions of roles 02–25, four each, none of them invitations:create. */
const OTHER_PERMISSIONS = [
  'audit:read',
  'domains:manage',
  'invitations:read',
  'join_requests:decide',
  'members:remove',
  'reports:export',
  'billing:manage',
];

function seedStatements(sql: SeedSql): [string, string][] {
  const { seq, cat, at, key, pad } = sql;
  const role = (expression: string) => cat(`'role-'`, pad(expression, 2));
  return [
    [
      'the tenant, and 1,000 others',
      'INSERT INTO tenants (id, name, type, status, created_at) ' +
        `SELECT ${cat(`'tenant-'`, pad('seq', 5))}, ${cat(`'Tenant '`, 'seq')}, 'business', 'active', ${at('seq')} ` +
        `FROM ${seq(1000)}`,
    ],
    [
      'the measured tenant',
      'INSERT INTO tenants (id, name, type, status, created_at) ' +
        `VALUES ('${TENANT}', 'Roles Co', 'business', 'active', ${at('0')})`,
    ],
    [
      `${MEMBERS} members`,
      'INSERT INTO users (id, email, email_key, user_type, tenant_id, role, created_at) ' +
        `SELECT ${cat(`'member-'`, 'seq')}, ${cat(`'member-'`, 'seq', `'@roles.example'`)}, ` +
        `${key(cat(`'member-'`, 'seq', `'@roles.example'`))}, 'org', '${TENANT}', ` +
        "CASE WHEN seq = 1 THEN 'owner' WHEN seq <= 100 THEN 'admin' ELSE 'member' END, " +
        `${at('seq')} FROM ${seq(MEMBERS)}`,
    ],
    [
      'the product’s catalogue',
      "INSERT INTO product_permissions (permission_key, description, created_at) VALUES ('reports:export', NULL, " +
        `${at('0')}), ('billing:manage', NULL, ${at('0')})`,
    ],
    [
      `${ROLES} roles`,
      'INSERT INTO org_roles (tenant_id, role_key, name, description, version, created_at, updated_at) ' +
        `SELECT '${TENANT}', ${role('seq')}, ${cat(`'Role '`, 'seq')}, NULL, 0, ${at('0')}, ${at('0')} ` +
        `FROM ${seq(ROLES)}`,
    ],
    [
      'their permissions',
      'INSERT INTO org_role_permissions (tenant_id, role_key, permission) ' +
        `VALUES ('${TENANT}', 'role-01', 'invitations:create'), ('${TENANT}', 'role-01', 'invitations:read')` +
        Array.from({ length: ROLES - 1 }, (_, index) =>
          [0, 1, 2, 3]
            .map((offset) => OTHER_PERMISSIONS[(index + offset) % OTHER_PERMISSIONS.length])
            .map((permission) => `, ('${TENANT}', 'role-${String(index + 2).padStart(2, '0')}', '${permission}')`)
            .join(''),
        ).join(''),
    ],
    ...[0, 7].map((offset): [string, string] => [
      `a role of roles 02–25 for every member but one (${offset ? 'second' : 'first'})`,
      'INSERT INTO member_roles (tenant_id, user_id, role_key, granted_at) ' +
        `SELECT '${TENANT}', ${cat(`'member-'`, 'seq')}, ` +
        `${role(`((seq + ${offset}) % ${ROLES - 1}) + 2`)}, ${at('0')} ` +
        `FROM ${seq(MEMBERS)} WHERE seq <> ${PLAIN}`,
    ]),
    [
      'the recruiter’s role',
      'INSERT INTO member_roles (tenant_id, user_id, role_key, granted_at) ' +
        `VALUES ('${TENANT}', 'member-${RECRUITER}', 'role-01', ${at('0')})`,
    ],
  ];
}

async function seed(dialect: Dialect, url: string): Promise<void> {
  const started = Date.now();
  const dataSource = new DataSource(dataSourceOptions(parseConfig({ NODE_ENV: 'test', DATABASE_URL: url })));
  await dataSource.initialize();
  await dataSource.runMigrations();
  if (dialect === 'sqlite') prepareSqliteSeed(dataSource, MEMBERS);
  for (const [, sql] of seedStatements(seedSql(dialect))) await dataSource.query(sql);
  if (dialect === 'sqlite') await dataSource.query('DROP TABLE bench_seq');
  await dataSource.query(
    dialect === 'sqlite' ? 'ANALYZE' : 'ANALYZE TABLE tenants, users, org_roles, org_role_permissions, member_roles',
  );
  await dataSource.destroy();
  console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

interface Timing {
  p50: number;
  p95: number;
  statuses: Set<number>;
}

/** Requests sent before any is timed, per scenario: the server's code paths compiled and its caches warm. */
const WARM_UP = 200;

/**
 * `samples` requests of each scenario, one at a time, the scenarios taking turns request by request:
 * a drift of the machine during the round meets them all alike.
 */
async function time(requests: (() => Promise<Response>)[], samples = SAMPLES): Promise<Timing[]> {
  const ms = requests.map((): number[] => []);
  const statuses = requests.map(() => new Set<number>());
  for (let i = 0; i < samples; i++) {
    for (const [index, request] of requests.entries()) {
      const started = process.hrtime.bigint();
      const res = await request();
      await res.arrayBuffer();
      ms[index].push(Number(process.hrtime.bigint() - started) / 1e6);
      statuses[index].add(res.status);
    }
  }
  return ms.map((times, index) => {
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), statuses: statuses[index] };
  });
}

const cookieOf = (seq: number, role: string) =>
  `id_token=${portalToken(
    {
      id: `member-${seq}`,
      email: `member-${seq}@roles.example`,
      platformRole: null,
      userType: 'org',
      tenantId: TENANT,
      role,
    } satisfies IdentityUser,
    SECRET,
    7_200,
  )}`;

/** The scenarios, by name: a request each, and whether a build without roles has the route. */
function scenarios(url: string) {
  const admin = cookieOf(2, 'admin');
  const recruiter = cookieOf(RECRUITER, 'member');
  const lacking = cookieOf(LACKING, 'member');
  const plain = cookieOf(PLAIN, 'member');
  const get = (path: string, cookie: string) => () => fetch(url + path, { headers: { cookie } });
  const check = () =>
    fetch(`${url}/api/org/permissions/check`, {
      method: 'POST',
      headers: { cookie: recruiter, 'content-type': 'application/json' },
      body: JSON.stringify({
        permissions: ['invitations:create', 'members:remove', 'reports:export', 'audit:read', 'billing:manage'],
      }),
    });
  // Today's guarded POST: the guard, a JSON body, and a refusal of it (a POST costs more than a GET here).
  const domain = () =>
    fetch(`${url}/api/org/domains`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: '' }),
    });
  return [
    ['GET /api/org/invite/quota, admin (today’s guarded route)', get('/api/org/invite/quota', admin), true],
    ['POST /api/org/domains, admin, an empty name (400)', domain, true],
    ['GET /api/org/invite/quota, member without roles (403)', get('/api/org/invite/quota', plain), true],
    ['GET /api/org/invite/quota, recruiter (custom role)', get('/api/org/invite/quota', recruiter), false],
    ['GET /api/org/invite/quota, roles that lack it (403)', get('/api/org/invite/quota', lacking), false],
    ['POST /api/org/permissions/check, recruiter, 5', check, false],
    ['GET /api/me/permissions, recruiter', get('/api/me/permissions', recruiter), false],
  ] as const;
}

async function measure(url: string): Promise<void> {
  const targets = [...(BASELINE ? [{ name: 'baseline', root: BASELINE }] : []), { name: 'this build', root: ROOT }];
  const results = new Map<string, number[][]>(); // `${target} ${scenario}` → [p50, p95] per round
  for (let round = 1; round <= ROUNDS; round++) {
    // The builds change places each round: neither is always the one that starts on a machine the other warmed.
    for (const target of round % 2 ? targets : [...targets].reverse()) {
      const server = await startServerProcess(
        {
          DATABASE_URL: url,
          AUTH_JWT_SECRET: SECRET,
          NODE_ENV: 'production',
          IDENTITY_STORE: 'local',
          DB_MIGRATIONS_RUN: 'false',
          INVITE_RATE_LIMIT: '1000000',
          LOG_LEVEL: 'warn',
        },
        { command: [process.execPath, ...startNodeOptions(), join(target.root, 'dist', 'src', 'main.js')] },
      );
      try {
        const measured = scenarios(server.url).filter(([, , inBaseline]) => target.name !== 'baseline' || inBaseline);
        const requests = measured.map(([, request]) => request);
        await time(requests, WARM_UP);
        const timings = await time(requests);
        for (const [index, [name]] of measured.entries()) {
          const timing = timings[index];
          const key = `${target.name}: ${name}`;
          results.set(key, [...(results.get(key) ?? []), [timing.p50, timing.p95]]);
          console.log(
            `round ${round} ${key.padEnd(76)} p50 ${timing.p50.toFixed(2)} ms  p95 ${timing.p95.toFixed(2)} ms  ` +
              `status ${[...timing.statuses].join(',')}`,
          );
        }
      } finally {
        await server.kill();
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`\nmedians of the ${ROUNDS} rounds' p50 / p95 (ms):`);
  for (const [key, rounds] of results)
    console.log(
      `${key.padEnd(86)} ${median(rounds.map(([p50]) => p50)).toFixed(2)} / ` +
        median(rounds.map(([, p95]) => p95)).toFixed(2),
    );
}

runOnEach(
  DATABASES,
  'bench_roles',
  () => `one tenant of ${MEMBERS} members and ${ROLES} roles, two roles a member`,
  { seed, measure },
  MYSQL_SERVER,
);
