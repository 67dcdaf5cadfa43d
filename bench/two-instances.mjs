// Two instances of this service against one, on one MariaDB database (docs/benchmark.md): throughput of
// GET /api/invitations/{token} and POST /api/org/invite with 32 connections on one server, then
// 16 on each of two at once. Needs MariaDB as root without a password on 127.0.0.1:3306
// (BENCH_MYSQL_URL to change it) and a build (npm run build); uses ports 39611 and 39612.
//   npm run bench:instances            (DURATION=8 seconds per run)
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ownerCookie, seedTenantWithInvitations, stopServers, untilReady } from './support/bench-service.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const DURATION = Number(process.env.DURATION ?? 8);
const SERVER = (process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');
const DATABASE = `bench_two_${Date.now()}`;
const SECRET = `bench-${randomBytes(16).toString('hex')}`;
const PORTS = [39611, 39612];
const INVITATIONS = 20_000;

// As the raw-limit comparison starts the service (docs/benchmark.md): production, no SMTP, no Redis.
const env = {
  ...process.env,
  DATABASE_URL: `${SERVER}/${DATABASE}`,
  AUTH_JWT_SECRET: SECRET,
  INVITE_RATE_LIMIT: '1000000',
  NODE_ENV: 'production',
  IDENTITY_STORE: 'local',
  DB_MIGRATIONS_RUN: 'false',
};
delete env.SMTP_URL;
delete env.REDIS_URL;

const admin = await mysql.createConnection({ uri: `${SERVER}/`, timezone: 'Z' });
await admin.query(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4`);
const servers = [];
try {
  execSync('npm run -s migration:run', { cwd: ROOT, env, stdio: 'ignore' });
  const db = await mysql.createConnection({ uri: env.DATABASE_URL, timezone: 'Z' });
  const tokens = await seedTenantWithInvitations(db, INVITATIONS);
  await db.end();
  const cookie = ownerCookie(SECRET);

  for (const port of PORTS)
    servers.push(
      spawn('npm', ['start'], { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: 'ignore', detached: true }),
    );
  await Promise.all(PORTS.map(untilReady));

  let sequence = 0;
  const scenarios = {
    get: (port) => ({
      url: `http://127.0.0.1:${port}`,
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => ({
            ...request,
            path: `/api/invitations/${tokens[Math.floor(Math.random() * tokens.length)]}`,
          }),
        },
      ],
    }),
    invite: (port) => ({
      url: `http://127.0.0.1:${port}`,
      requests: [
        {
          method: 'POST',
          path: '/api/org/invite',
          headers: { cookie, 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ email: `new-${sequence++}@bench.example`, role: 'member' }),
          }),
        },
      ],
    }),
  };
  const load = (options, connections, duration) => autocannon({ ...options, connections, duration });
  const failures = (result) => result.non2xx + result.errors;

  for (const [name, scenario] of Object.entries(scenarios)) {
    for (const port of PORTS) await load(scenario(port), 32, 2); // warm-up
    const one = await load(scenario(PORTS[0]), 32, DURATION);
    const two = await Promise.all(PORTS.map((port) => load(scenario(port), 16, DURATION)));
    const together = two[0].requests.average + two[1].requests.average;
    console.log(
      `${name}: one instance ${Math.round(one.requests.average)} req/s (p99 ${one.latency.p99} ms, ${failures(one)} failures); ` +
        `two instances ${Math.round(together)} req/s (p99 ${Math.max(two[0].latency.p99, two[1].latency.p99)} ms, ${failures(two[0]) + failures(two[1])} failures); ` +
        `ratio ${(together / one.requests.average).toFixed(2)}`,
    );
  }
} finally {
  await stopServers(servers);
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await admin.end();
}
