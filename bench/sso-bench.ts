/**
 * Single sign-on benchmark (docs/benchmark.md, "Single sign-on"): the cost of an OIDC callback and of
 * a SAML ACS, the requests that check the provider's answer and sign a person in, on an organisation
 * of 10,000 members among 1,000 other tenants.
 *   npm run bench:sso                          # MariaDB, then SQLite
 *   BENCH_DATABASES=sqlite npm run bench:sso   # one of them (mariadb, sqlite)
 *   BENCH_SAMPLES=300 npm run bench:sso
 * The built service runs as `npm start` runs it (its heap limits), with NODE_ENV=development: the
 * loopback provider (scripts/dev-oidc.mjs, as the tests use it) speaks http, which production
 * refuses. Each sample takes the browser's way: the start and the provider's redirects untimed,
 * then the callback timed (time to the last byte), one at a time. Three scenarios: a member's first
 * sign-in (the account linked to the subject), the same members again (found by the subject), and a
 * person new to the service who joins (jit: the account, the membership, the events), for each
 * protocol. The OIDC callback includes the code exchange with the provider, on this machine's cores
 * too; a SAML response is built and signed (test/support/saml-idp.ts) before its timed POST, whose
 * checks include the signature's verification (RSA-SHA256, 2048 bits). The service's own CPU
 * per callback is read from /proc (user + system time of its process around each timed request).
 * Numbers depend on the machine: compare runs on the same one, never assert on them in tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { portalToken } from '../test/support/portal-token';
import { parseConfig } from '../src/config/app-config';
import { dataSourceOptions } from '../src/database/data-source-options';
import { TestOidcProvider } from '../test/support/oidc-provider';
import { TestSamlIdp } from '../test/support/saml-idp';
import { ROOT, ServerProcess, startServerProcess } from '../test/support/server-process';
import { Dialect, percentile, prepareSqliteSeed, runOnEach, seedSql, startNodeOptions } from './support/seed-database';

const DATABASES = (process.env.BENCH_DATABASES ?? 'mariadb,sqlite').split(',').map((name) => name.trim()) as Dialect[];
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const MYSQL_SERVER = (process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');
const SECRET = 'bench-sso-secret-at-least-32-characters-long';
const MEMBERS = 10_000;
const TENANT = 'tenant-sso';
const DOMAIN = 'sso.example';
/** Sign-ins before any is timed: the server's code paths compiled, the provider's keys fetched. */
const WARM_UP = 50;

async function seed(dialect: Dialect, url: string): Promise<void> {
  const { seq, cat, at, key, pad } = seedSql(dialect);
  const dataSource = new DataSource(dataSourceOptions(parseConfig({ NODE_ENV: 'test', DATABASE_URL: url })));
  await dataSource.initialize();
  await dataSource.runMigrations();
  if (dialect === 'sqlite') prepareSqliteSeed(dataSource, MEMBERS);
  const address = cat(`'member-'`, 'seq', `'@${DOMAIN}'`);
  for (const sql of [
    'INSERT INTO tenants (id, name, type, status, created_at) ' +
      `SELECT ${cat(`'tenant-'`, pad('seq', 5))}, ${cat(`'Tenant '`, 'seq')}, 'business', 'active', ${at('seq')} ` +
      `FROM ${seq(1000)}`,
    `INSERT INTO tenants (id, name, type, status, created_at) VALUES ('${TENANT}', 'SSO Co', 'business', 'active', ${at('0')})`,
    'INSERT INTO users (id, email, email_key, user_type, tenant_id, role, created_at) ' +
      `SELECT ${cat(`'member-'`, 'seq')}, ${address}, ${key(address)}, 'org', '${TENANT}', ` +
      `CASE WHEN seq = 1 THEN 'owner' ELSE 'member' END, ${at('seq')} FROM ${seq(MEMBERS)}`,
    'INSERT INTO org_domains (id, tenant_id, name, status, join_mode, token, token_issued_at, verified_at, ' +
      `next_check_at, held_name, created_at) VALUES ('domain-sso', '${TENANT}', '${DOMAIN}', 'verified', 'off', ` +
      `'bench-token', ${at('0')}, ${at('0')}, ${at('86400')}, '${DOMAIN}', ${at('0')})`,
  ])
    await dataSource.query(sql);
  if (dialect === 'sqlite') await dataSource.query('DROP TABLE bench_seq');
  await dataSource.destroy();
}

/** The user and system CPU time of a process so far, in milliseconds (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime: fields 14 and 15 of the line, 12 and 13 after "pid (comm) state".
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

interface Timing {
  p50: number;
  p95: number;
  cpu: number;
  statuses: Set<number>;
}

/** One sign-in as the browser makes it; only the callback is timed. */
async function signIn(
  server: ServerProcess,
  provider: TestOidcProvider,
  connection: string,
  who: { sub: string; email: string },
): Promise<{ ms: number; cpu: number; status: number }> {
  await provider.nextLogin(who);
  const started = await fetch(`${server.url}/sso/start?connection=${connection}`, { redirect: 'manual' });
  const callback = await provider.authorize(started.headers.get('location')!);
  const cpuBefore = cpuMs(server.child.pid!);
  const before = process.hrtime.bigint();
  const res = await fetch(`${server.url}${callback.pathname}${callback.search}`, { redirect: 'manual' });
  await res.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - before) / 1e6;
  return { ms, cpu: cpuMs(server.child.pid!) - cpuBefore, status: res.status };
}

/** One SAML sign-in: the start and the provider's signed response untimed, the ACS timed. */
async function samlSignIn(
  server: ServerProcess,
  idp: TestSamlIdp,
  connection: Connection,
  email: string,
): Promise<{ ms: number; cpu: number; status: number }> {
  const started = await fetch(`${server.url}/sso/start?connection=${connection.id}`, { redirect: 'manual' });
  const request = TestSamlIdp.authnRequest(started.headers.get('location')!);
  // The SP's addresses as the service names them (its origin as it sees it), posted to on the loopback.
  const { acsUrl, entityId } = connection.sp as { acsUrl: string; entityId: string };
  const body = new URLSearchParams({
    SAMLResponse: idp.response({ acsUrl, audience: entityId, email, inResponseTo: request.id }),
  });
  const cpuBefore = cpuMs(server.child.pid!);
  const before = process.hrtime.bigint();
  const res = await fetch(`${server.url}/sso/saml/${connection.id}/acs`, { method: 'POST', body, redirect: 'manual' });
  await res.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - before) / 1e6;
  return { ms, cpu: cpuMs(server.child.pid!) - cpuBefore, status: res.status };
}

interface Connection {
  id: string;
  sp: Record<string, string>;
}

/** A connection made active by the owner. */
async function activeConnection(
  server: ServerProcess,
  asOwner: Record<string, string>,
  body: object,
): Promise<Connection> {
  const created = await fetch(`${server.url}/api/org/sso/connections`, {
    method: 'POST',
    headers: asOwner,
    body: JSON.stringify(body),
  });
  const { connection } = (await created.json()) as { connection: Connection };
  await fetch(`${server.url}/api/org/sso/connections/${connection.id}`, {
    method: 'PATCH',
    headers: asOwner,
    body: JSON.stringify({ status: 'active' }),
  });
  return connection;
}

async function time(sign: (i: number) => Promise<{ ms: number; cpu: number; status: number }>, from: number) {
  const ms: number[] = [];
  let cpu = 0;
  const statuses = new Set<number>();
  for (let i = 0; i < SAMPLES; i++) {
    const sample = await sign(from + i);
    ms.push(sample.ms);
    cpu += sample.cpu;
    statuses.add(sample.status);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), cpu: cpu / SAMPLES, statuses } satisfies Timing;
}

async function measure(url: string): Promise<void> {
  const provider = new TestOidcProvider();
  await provider.start();
  const server = await startServerProcess(
    {
      DATABASE_URL: url,
      AUTH_JWT_SECRET: SECRET,
      NODE_ENV: 'development',
      IDENTITY_STORE: 'local',
      DB_MIGRATIONS_RUN: 'false',
      LOG_LEVEL: 'warn',
    },
    { command: [process.execPath, ...startNodeOptions(), join(ROOT, 'dist', 'src', 'main.js')] },
  );
  try {
    const owner = portalToken(
      {
        id: 'member-1',
        email: `member-1@${DOMAIN}`,
        platformRole: null,
        userType: 'org',
        tenantId: TENANT,
        role: 'owner',
      },
      SECRET,
      7_200,
    );
    const asOwner = { cookie: `id_token=${owner}`, 'content-type': 'application/json' };
    const oidc = await activeConnection(server, asOwner, {
      type: 'oidc',
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
    });
    const idp = await TestSamlIdp.create('okta');
    const saml = await activeConnection(server, asOwner, { type: 'saml', metadataXml: idp.metadata() });
    const member = (n: number) => ({ sub: `subject-${n}`, email: `member-${n}@${DOMAIN}` });
    const sign = (who: (n: number) => { sub: string; email: string }) => (n: number) =>
      signIn(server, provider, oidc.id, who(n));
    const signSaml = (who: (n: number) => string) => (n: number) => samlSignIn(server, idp, saml, who(n));
    const samlMember = (n: number) => `member-${n + MEMBERS / 2}@${DOMAIN}`;
    // Warm up on members that the timed scenarios leave alone.
    for (let i = 0; i < WARM_UP; i++) await sign(member)(MEMBERS - i);
    for (let i = 0; i < WARM_UP; i++) await signSaml(samlMember)(MEMBERS / 2 - 1 - i);
    const first = SAMPLES < MEMBERS / 4 ? 2 : 1;
    const scenarios: [string, Timing][] = [
      ['OIDC: a member’s first sign-in (the account linked)', await time(sign(member), first)],
      ['OIDC: the same members again (found by subject)', await time(sign(member), first)],
      [
        'OIDC: a person new to the service joins (jit)',
        await time(
          sign((n) => ({ sub: `new-${n}`, email: `new-${n}@${DOMAIN}` })),
          1,
        ),
      ],
      ['SAML: a member’s first sign-in (the account linked)', await time(signSaml(samlMember), first)],
      ['SAML: the same members again (found by subject)', await time(signSaml(samlMember), first)],
      [
        'SAML: a person new to the service joins (jit)',
        await time(
          signSaml((n) => `saml-new-${n}@${DOMAIN}`),
          1,
        ),
      ],
    ];
    for (const [name, timing] of scenarios)
      console.log(
        `${name.padEnd(54)} p50 ${timing.p50.toFixed(2)} ms  p95 ${timing.p95.toFixed(2)} ms  ` +
          `one at a time ${(1000 / timing.p50).toFixed(0)}/s  service CPU ${timing.cpu.toFixed(2)} ms  ` +
          `status ${[...timing.statuses].join(',')}`,
      );
  } finally {
    await server.kill();
    await provider.stop();
  }
}

runOnEach(
  DATABASES,
  'bench_sso',
  () => `an organisation of ${MEMBERS} members and 1,000 other tenants; ${SAMPLES} sign-ins each`,
  { seed, measure },
  MYSQL_SERVER,
);
