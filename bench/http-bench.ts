/**
 * HTTP benchmark: throughput, latency percentiles and memory of the main endpoints, on the real
 * server in its own process over loopback (SQLite by default; BENCH_DATABASE_URL=mysql://…/test
 * for MariaDB, where a fresh database is made and dropped).
 *   npm run bench                      # 5 s per scenario, 20 connections
 *   BENCH_SECONDS=20 BENCH_CONCURRENCY=50 npm run bench
 *   BENCH_AUDIT_EVENTS=100000 npm run bench   # fewer audit events to seed (default 1,000,000)
 *   BENCH_SCENARIOS=people npm run bench      # only these groups (core, audit, people, join, bulk, sessions; default all): only their data is seeded
 *   BENCH_ROUNDS=5 BENCH_SCENARIOS=sessions npm run bench   # the sessions group's paired rounds (default 3)
 * The core group runs the four scenarios of the raw-limit comparison (docs/benchmark.md) on
 * data shaped like its seed. The server's resident memory is sampled every 250 ms throughout.
 * Numbers depend on the machine: compare runs on the same one, never assert on them in tests.
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { auditCursorKey } from '../src/audit/audit-cursor';
import { AUDIT_EVENT_TYPES, toAuditEventRow } from '../src/audit/audit-event';
import { emailKey } from '../src/common/email-comparison';
import { encodeCursor } from '../src/common/paging';
import { AuditEventEntity, InvitationEntity, TenantEntity, UserEntity } from '../src/database/entities';
import { TENANT_TYPES } from '../src/database/entities/tenant.entity';
import { SessionTokenIssuer } from '../src/auth/session-token-issuer';
import { portalToken } from '../test/support/portal-token';
import { sessionPairs } from './session-pairs';
import { factories, sessionCookie } from '../test/support/factories';
import { builtCommand, ROOT, startServerProcess } from '../test/support/server-process';
import { createTestApp, TEST_JWT_SECRET, TestApp } from '../test/support/test-app';
import { createTestDatabase } from '../test/support/test-database';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const AUDIT_EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const GROUPS = ['core', 'audit', 'people', 'join', 'bulk', 'sessions'] as const;
type Group = (typeof GROUPS)[number];
const SELECTED = new Set(
  process.env.BENCH_SCENARIOS ? process.env.BENCH_SCENARIOS.split(',').map((group) => group.trim()) : GROUPS,
);
const selected = (group: Group) => SELECTED.has(group);
/** compare.sh's seed: this many tenants in all (the admin list), and members in the tenant whose owner invites. */
const TENANTS = 10_000;
const MEMBERS = 10_000;
/** Pending invitations that `get` picks from at random. */
const GET_INVITATIONS = 20_000;
/**
 * `accept` takes a fresh pending invitation for every request, so it needs one per request it can
 * make: enough for this rate, above what the bare raw limit of compare.sh accepts on this machine.
 */
const ACCEPT_RATE_CEILING = 8_000;
/**
 * The join group's invitees: each joins once (a join takes a fresh invitation to its own
 * address), as many as the join and its accept beside it can take in SECONDS and the warm-up.
 */
const JOIN_RATE_CEILING = 3_000;
const JOIN_WARM_UP_SECONDS = 2;
/** compare.sh loads the 1.7 MB tenant list with 4 connections, not 32. */
const ADMIN_CONNECTIONS = 4;

interface Scenario {
  name: string;
  expect: number;
  method: 'GET' | 'POST';
  path: string;
  cookie?: string;
  /** Connections for this scenario, instead of BENCH_CONCURRENCY. */
  connections?: number;
  /** A path for each request, instead of `path` (the scenario keeps its own count). */
  pathFor?: () => string;
  /** A body for each request (the scenario keeps its own count where bodies must be unique). */
  body?: () => unknown;
  /** A path and a session for each request, instead of `path` and `cookie`. */
  requestFor?: () => { path: string; cookie: string };
  /** Invitations each request makes: the line then also gives rows per second. */
  rowsPerRequest?: number;
}

/** The rows of one bulk request, and the members and invitations of each tenant the bulk group invites into. */
const BULK_ROWS = 100;
const BULK_TENANT_PEOPLE = 1_000;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A function that returns 0, 1, 2, … on successive calls. */
function counter(): () => number {
  let next = 0;
  return () => next++;
}

/** Resident memory of a process, from /proc (Linux). */
/** The NODE_OPTIONS that `npm start` gives the server (package.json), so that memory is measured as served. */
function startNodeOptions(): string {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return /NODE_OPTIONS="([^"$]*)/.exec(scripts.start)?.[1].trim() ?? '';
}

function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/**
 * The server's RSS read every 250 ms: the highest reading during each scenario and during the whole
 * run, so that a peak between two scenarios' end points is not missed.
 */
function sampleRss(pid: number) {
  let scenarioPeak = 0;
  let runPeak = 0;
  const sample = () => {
    const rss = rssOf(pid);
    scenarioPeak = Math.max(scenarioPeak, rss);
    runPeak = Math.max(runPeak, rss);
    return rss;
  };
  const timer = setInterval(sample, 250);
  return {
    /** Now, and the highest reading taken since the previous call (this one included). */
    scenarioEnd(): { now: number; max: number } {
      const now = sample();
      const max = scenarioPeak;
      scenarioPeak = 0;
      return { now, max };
    },
    stop(): number {
      clearInterval(timer);
      sample();
      return runPeak;
    },
  };
}

/** Load from autocannon (its own HTTP client, far lighter than fetch), one scenario at a time. */
/** With `warmUp`, 2 s and nothing printed; otherwise one line, ending with the server's RSS (`rss`). */
async function run(url: string, scenario: Scenario, warmUp = false, rss?: () => { now: number; max: number }) {
  const result = await autocannon({
    url: url + scenario.path,
    method: scenario.method,
    connections: scenario.connections ?? CONCURRENCY,
    duration: warmUp ? 2 : SECONDS,
    headers: { 'content-type': 'application/json', ...(scenario.cookie && { cookie: scenario.cookie }) },
    ...((scenario.pathFor || scenario.body || scenario.requestFor) && {
      requests: [
        {
          setupRequest: (request) => {
            const each = scenario.requestFor?.();
            return {
              ...request,
              ...(scenario.pathFor && { path: scenario.pathFor() }),
              ...(scenario.body && { body: JSON.stringify(scenario.body()) }),
              ...(each && { path: each.path, headers: { ...request.headers, cookie: each.cookie } }),
            };
          },
        },
      ],
    }),
  });
  if (warmUp) return;
  const unexpected = result.requests.total - (result.statusCodeStats?.[String(scenario.expect) as '200']?.count ?? 0);
  const memory = rss?.();
  console.log(
    [
      scenario.name.padEnd(50),
      `${(result.requests.total / SECONDS).toFixed(0).padStart(6)} req/s`,
      ...(scenario.rowsPerRequest
        ? [`${((result.requests.total * scenario.rowsPerRequest) / SECONDS).toFixed(0).padStart(6)} rows/s`]
        : []),
      `p50 ${result.latency.p50} ms`,
      `p97.5 ${result.latency.p97_5} ms`,
      `p99 ${result.latency.p99} ms`,
      memory ? `rss ${mb(memory.now)} (max ${mb(memory.max)})` : '',
      unexpected ? `UNEXPECTED STATUS x${unexpected}` : '',
    ].join('  '),
  );
}

/** `count` rows of `entity`, made by `row(i)`, in multi-row INSERTs of `batch`. */
async function bulkInsert<T extends object>(
  dataSource: DataSource,
  entity: new () => T,
  count: number,
  row: (i: number) => T,
  batch = 500,
) {
  for (let from = 0; from < count; from += batch) {
    const rows: T[] = [];
    for (let i = from; i < Math.min(from + batch, count); i++) rows.push(row(i));
    await dataSource.getRepository(entity).insert(rows as never);
  }
}

/**
 * AUDIT_EVENTS events, one a second back from now, spread over 100 tenants, 1,000 actors and all
 * types; the cursor of the middle one, for a page deep in the trail.
 */
async function seedAuditEvents(dataSource: DataSource, tenantId: string): Promise<string> {
  const start = Date.now();
  let middle = '';
  await bulkInsert(dataSource, AuditEventEntity, AUDIT_EVENTS, (i) => {
    const row = toAuditEventRow(randomUUID(), new Date(start - i * 1_000), {
      type: AUDIT_EVENT_TYPES[i % AUDIT_EVENT_TYPES.length],
      tenantId: i % 100 === 0 ? tenantId : `tenant-${i % 100}`,
      actor: { id: `actor-${i % 1_000}`, email: `actor-${i % 1_000}@example.com` },
      target: { type: 'user', id: `user-${i}`, email: `user-${i}@example.com` },
      data: { role: 'member' },
    });
    if (i === Math.floor(AUDIT_EVENTS / 2)) middle = encodeCursor(auditCursorKey(row));
    return row as AuditEventEntity;
  });
  return middle;
}

/**
 * A tenant for GET /api/org/people: `members` users (the owner among them) and `invitations`
 * invitations, a tenth of them accepted and a tenth revoked (left out of the list), some expired,
 * on e-mails that interleave with the members'. Inserted in batches, not through the API. Gives
 * the tenant, its owner's id and cookie, and the cursor of the member in the middle of the list,
 * for a deep page.
 */
async function seedPeople(seed: TestApp, members: number, invitations: number) {
  const factory = factories(seed);
  const tenant = await factory.tenant();
  const label = tenant.id.slice(0, 8);
  const owner = await factory.member(tenant.id, { role: 'owner', email: `person-0-owner@${label}.example` });
  const now = new Date();
  const statuses = [
    'pending',
    'pending',
    'pending',
    'pending',
    'pending',
    'pending',
    'expired',
    'pending',
    'accepted',
    'revoked',
  ] as const;
  await bulkInsert(seed.dataSource, UserEntity, members - 1, (i) => {
    const email = `person-${(i + 1) * 3}@${label}.example`;
    return {
      id: randomUUID(),
      email,
      emailKey: emailKey(email),
      platformRole: null,
      userType: 'org',
      tenantId: tenant.id,
      role: 'member',
      createdAt: now,
    };
  });
  await bulkInsert(seed.dataSource, InvitationEntity, invitations, (i) => {
    const status = statuses[i % statuses.length];
    return {
      id: randomUUID(),
      tenantId: tenant.id,
      email: `person-${Math.floor((i * 3) / 2) + 1}@${label}.example`,
      role: 'member',
      status,
      expiresAt: new Date(now.getTime() + (status === 'expired' ? -1 : 7) * 24 * 3600 * 1000),
      invitedBy: owner.id,
      createdAt: now,
    };
  });
  const [middle] = await seed.identity.listTenantMembers(
    tenant.id,
    { email: `person-${Math.floor(members / 2) * 3}@${label}.example`, id: '' },
    1,
  );
  return {
    tenantId: tenant.id,
    ownerId: owner.id,
    cookie: await sessionCookie(seed, owner),
    middleCursor: encodeCursor([middle.email, 'member', middle.id]),
  };
}

/**
 * The core group's data, shaped like compare.sh's seed: a tenant of MEMBERS members whose owner
 * invites, tenants up to TENANTS in all, and pending invitations in that tenant: GET_INVITATIONS
 * for `get` to pick from at random, and one for every request `accept` can make in SECONDS.
 */
async function seedCore(seed: TestApp) {
  const big = await seedPeople(seed, MEMBERS, 0);
  const now = new Date();
  const others = TENANTS - (await seed.dataSource.getRepository(TenantEntity).count());
  await bulkInsert(seed.dataSource, TenantEntity, others, (i) => ({
    id: randomUUID(),
    name: `Bench tenant ${i}`,
    type: TENANT_TYPES[i % TENANT_TYPES.length],
    status: 'pending_owner',
    createdAt: now,
  }));
  const expiresAt = new Date(now.getTime() + 7 * 24 * 3600 * 1000);
  const pending = async (count: number, label: string) => {
    const ids = Array.from({ length: count }, () => randomUUID());
    await bulkInsert(seed.dataSource, InvitationEntity, count, (i) => ({
      id: ids[i],
      tenantId: big.tenantId,
      email: `${label}-${i}@bench.example`,
      role: i % 5 === 0 ? 'admin' : 'member',
      status: 'pending' as const,
      expiresAt,
      invitedBy: big.ownerId,
      createdAt: now,
    }));
    return ids;
  };
  const getTokens = await pending(GET_INVITATIONS, 'get');
  const acceptTokens = await pending(ACCEPT_RATE_CEILING * SECONDS, 'accept');
  return {
    ownerCookie: big.cookie,
    getTokens,
    acceptTokens,
    tenants: await seed.dataSource.getRepository(TenantEntity).count(),
  };
}

/**
 * The join group's data: a pending_owner tenant, and in it a pending invitation for every request
 * that `accept` and `join` can each make: for `join`, to a user of its own (without an
 * organisation yet) with a session, so that each join makes a new member; for `accept`, as in core.
 */
async function seedJoin(seed: TestApp) {
  const tenant = await factories(seed).tenant();
  const count = JOIN_RATE_CEILING * (SECONDS + JOIN_WARM_UP_SECONDS);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + 7 * 24 * 3600 * 1000);
  const invitees = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), email: `invitee-${i}@join.example` }));
  await bulkInsert(seed.dataSource, UserEntity, count, (i) => ({
    ...invitees[i],
    emailKey: emailKey(invitees[i].email),
    platformRole: null,
    userType: null,
    tenantId: null,
    role: null,
    createdAt: now,
  }));
  const invitation = (email: string): InvitationEntity => ({
    id: randomUUID(),
    tenantId: tenant.id,
    email,
    role: 'member',
    status: 'pending',
    expiresAt,
    invitedBy: 'bench',
    createdAt: now,
  });
  const joins = invitees.map((invitee) => ({ invitation: invitation(invitee.email), invitee }));
  const accepts = invitees.map((_, i) => invitation(`accepted-${i}@join.example`));
  await bulkInsert(seed.dataSource, InvitationEntity, count, (i) => joins[i].invitation);
  await bulkInsert(seed.dataSource, InvitationEntity, count, (i) => accepts[i]);
  const cookie = seed.config.sessionCookieName;
  return {
    acceptTokens: accepts.map((row) => row.id),
    joins: joins.map(({ invitation: row, invitee }) => ({
      path: `/api/invitations/${row.id}/join`,
      cookie: `${cookie}=${portalToken({ ...invitee, platformRole: null, userType: null, tenantId: null, role: null }, seed.config.authJwtSecret)}`,
    })),
  };
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
  const ownerUser = await factory.member(tenant.id, { role: 'owner' });
  const owner = await sessionCookie(seed, ownerUser);
  // The sessions group: the owner's token of today, and a session of the service's for the owner.
  const sidOwner = `${seed.config.sessionCookieName}=${(await seed.app.get(SessionTokenIssuer).issue(ownerUser, { kind: 'cli' })).token}`;
  const middleCursor = selected('audit') ? await seedAuditEvents(seed.dataSource, tenant.id) : '';
  const smallTenant = selected('people') ? await seedPeople(seed, 100, 200) : undefined;
  const largeTenant = selected('people') ? await seedPeople(seed, 10_000, 20_000) : undefined;
  // Last, so that the tenants of the other groups count towards the TENANTS of the admin list.
  const seedStart = Date.now();
  const core = selected('core') ? await seedCore(seed) : undefined;
  const joining = selected('join') ? await seedJoin(seed) : undefined;
  // A tenant of its own for each bulk scenario, so that none invites into what another created.
  const bulkTenants = selected('bulk')
    ? await Promise.all([1, 2, 3].map(() => seedPeople(seed, BULK_TENANT_PEOPLE, BULK_TENANT_PEOPLE)))
    : [];
  await seed.close();

  // The built server as operators start it (npm start: production, its heap bounds), without
  // npm in between, so that the process measured is the server itself.
  const server = await startServerProcess(
    {
      DATABASE_URL: database.url,
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      INVITE_RATE_LIMIT: '1000000',
      NODE_ENV: 'production',
      NODE_OPTIONS: startNodeOptions(),
    },
    { command: builtCommand([process.execPath, 'dist/src/main.js']) },
  );
  const rss = sampleRss(server.child.pid!);
  try {
    const audit = selected('audit') ? `, ${AUDIT_EVENTS} audit events` : '';
    console.log(
      `${SECONDS} s per scenario, ${CONCURRENCY} connections, database ${database.url.split(':')[0]}${audit}`,
    );
    if (core) {
      console.log(
        `core: ${core.tenants} tenants, ${MEMBERS} members in the inviting tenant, ` +
          `${core.getTokens.length} + ${core.acceptTokens.length} pending invitations (get, accept), seeded in ${Date.now() - seedStart} ms`,
      );
    }
    console.log(
      `load average at start: ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
    const rssBefore = rssOf(server.child.pid!);
    const invited = counter();
    const accepted = counter();
    const coreScenarios: Scenario[] = core
      ? [
          // compare.sh's four: get, accept, invite, admin.
          {
            name: 'get: GET /api/invitations/{random token}',
            expect: 200,
            method: 'GET',
            path: '/api/invitations/',
            pathFor: () => `/api/invitations/${core.getTokens[Math.floor(Math.random() * core.getTokens.length)]}`,
          },
          {
            name: 'accept: POST /api/invitations/{new token}',
            expect: 200,
            method: 'POST',
            path: '/api/invitations/',
            // Past the last token (a rate above ACCEPT_RATE_CEILING), the answers are 400 ALREADY_USED: reported as unexpected.
            pathFor: () => `/api/invitations/${core.acceptTokens[accepted() % core.acceptTokens.length]}`,
          },
          {
            name: `invite: POST /api/org/invite (${MEMBERS} members)`,
            expect: 200,
            method: 'POST',
            path: '/api/org/invite',
            cookie: core.ownerCookie,
            body: () => ({ email: `bench-${invited()}@example.com`, role: 'member' }),
          },
          {
            name: `admin: GET /api/admin/tenants (${core.tenants}, ${ADMIN_CONNECTIONS} conn.)`,
            expect: 200,
            method: 'GET',
            path: '/api/admin/tenants',
            cookie: admin,
            connections: ADMIN_CONNECTIONS,
          },
          {
            name: 'GET /api/admin/super-admins',
            expect: 200,
            method: 'GET',
            path: '/api/admin/super-admins',
            cookie: admin,
          },
          {
            name: 'POST /api/org/invite (invalid body)',
            expect: 400,
            method: 'POST',
            path: '/api/org/invite',
            body: () => ({ email: 'x' }),
          },
        ]
      : [];
    const joinAccepted = counter();
    const joined = counter();
    const joinScenarios: Scenario[] = joining
      ? [
          // The same shape side by side: a fresh invitation each, one the spec's accept, the other a join that makes a member.
          {
            name: 'accept: POST /api/invitations/{new token}',
            expect: 200,
            method: 'POST',
            path: '/api/invitations/',
            pathFor: () => `/api/invitations/${joining.acceptTokens[joinAccepted() % joining.acceptTokens.length]}`,
          },
          {
            name: 'join: POST /api/invitations/{new token}/join',
            expect: 200,
            method: 'POST',
            path: '/api/invitations/',
            // Past the last invitee (a rate above JOIN_RATE_CEILING), the answers are 400 ALREADY_USED: reported as unexpected.
            requestFor: () => joining.joins[joined() % joining.joins.length],
          },
        ]
      : [];
    const bulkInvited = counter();
    const bulkBody = () => ({
      invitations: Array.from({ length: BULK_ROWS }, () => ({
        email: `bulk-${bulkInvited()}@example.com`,
        role: 'member',
      })),
    });
    const bulkScenarios: Scenario[] = bulkTenants.length
      ? [
          // Rows per second: one invitation per request, against BULK_ROWS per request; then one bulk request at a time, for its latency alone.
          {
            name: `bulk: POST /api/org/invite (1 row)`,
            expect: 200,
            method: 'POST',
            path: '/api/org/invite',
            cookie: bulkTenants[0].cookie,
            body: () => ({ email: `single-${bulkInvited()}@example.com`, role: 'member' }),
            rowsPerRequest: 1,
          },
          {
            name: `bulk: POST /api/org/invitations/bulk (${BULK_ROWS} rows)`,
            expect: 200,
            method: 'POST',
            path: '/api/org/invitations/bulk',
            cookie: bulkTenants[1].cookie,
            body: bulkBody,
            rowsPerRequest: BULK_ROWS,
          },
          {
            name: `bulk: POST /api/org/invitations/bulk (${BULK_ROWS} rows, 1 conn.)`,
            expect: 200,
            method: 'POST',
            path: '/api/org/invitations/bulk',
            cookie: bulkTenants[2].cookie,
            connections: 1,
            body: bulkBody,
            rowsPerRequest: BULK_ROWS,
          },
        ]
      : [];
    const scenarios: (Scenario & { group: Group })[] = [
      ...coreScenarios.map((scenario) => ({ ...scenario, group: 'core' as const })),
      ...joinScenarios.map((scenario) => ({ ...scenario, group: 'join' as const })),
      ...bulkScenarios.map((scenario) => ({ ...scenario, group: 'bulk' as const })),
      // One page of the audit trail, AUDIT_EVENTS rows in the table: first, deep and filtered pages.
      {
        group: 'audit',
        name: 'GET /api/admin/audit-events',
        expect: 200,
        method: 'GET',
        path: '/api/admin/audit-events',
        cookie: admin,
      },
      {
        group: 'audit',
        name: 'GET /api/admin/audit-events (deep page)',
        expect: 200,
        method: 'GET',
        path: `/api/admin/audit-events?cursor=${middleCursor}`,
        cookie: admin,
      },
      {
        group: 'audit',
        name: 'GET /api/admin/audit-events?type&actorId',
        expect: 200,
        method: 'GET',
        path: '/api/admin/audit-events?type=user.deleted&actorId=actor-6',
        cookie: admin,
      },
      {
        group: 'audit',
        name: 'GET /api/org/audit-events',
        expect: 200,
        method: 'GET',
        path: '/api/org/audit-events',
        cookie: owner,
      },
      // A page of 50 people (members and open invitations merged): first and middle pages, on a small and a large tenant.
      ...(smallTenant && largeTenant
        ? (
            [
              ['100 + 200', smallTenant],
              ['10,000 + 20,000', largeTenant],
            ] as const
          ).flatMap(([size, people]) => [
            {
              group: 'people' as const,
              name: `GET /api/org/people (${size})`,
              expect: 200,
              method: 'GET' as const,
              path: '/api/org/people',
              cookie: people.cookie,
            },
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
    if (chosen.length) await run(server.url, chosen[0], true);
    rss.scenarioEnd();
    for (const scenario of chosen) await run(server.url, scenario, false, rss.scenarioEnd);
    if (selected('sessions'))
      await sessionPairs(
        server.url,
        { portal: owner, sid: sidOwner },
        {
          rounds: Number(process.env.BENCH_ROUNDS ?? 3),
          seconds: SECONDS,
          connections: CONCURRENCY,
        },
      );
    console.log(
      `server memory: rss ${mb(rssBefore)} at start -> ${mb(rssOf(server.child.pid!))} after the run, max ${mb(rss.stop())} (sampled every 250 ms)`,
    );
    console.log(
      `load average at the end: ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    rss.stop();
    await server.kill();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
