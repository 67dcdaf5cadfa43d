// Two instances of this service against one, on one MariaDB database (issue 11): throughput of
// GET /api/invitations/{token} and POST /api/org/invite with 32 connections on one server, then
// 16 on each of two at once. Needs MariaDB as root without a password on 127.0.0.1:3306
// (BENCH_MYSQL_URL to change it) and a build (npm run build); uses ports 39611 and 39612.
//   npm run bench:instances            (DURATION=8 seconds per run)
import autocannon from 'autocannon';
import jwt from 'jsonwebtoken';
import mysql from 'mysql2/promise';
import { execSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

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

/** One tenant, its owner, and INVITATIONS pending invitations; their tokens. */
async function seed(db) {
  const now = new Date();
  const expires = new Date(now.getTime() + 7 * 24 * 3600 * 1000);
  await db.query('INSERT INTO tenants (id, name, type, status, created_at) VALUES (?, ?, ?, ?, ?)', [
    't1',
    'Bench Org',
    'business',
    'active',
    now,
  ]);
  await db.query('INSERT INTO users (id, email, user_type, tenant_id, role, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
    'owner1',
    'owner@bench.example',
    'org',
    't1',
    'owner',
    now,
  ]);
  const tokens = [];
  for (let batch = 0; batch < INVITATIONS / 1000; batch++) {
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const id = randomUUID();
      tokens.push(id);
      return [id, 't1', `invitee-${batch}-${i}@bench.example`, 'member', 'pending', expires, 'owner1', now];
    });
    await db.query(
      'INSERT INTO tenant_invitations (id, tenant_id, email, role, status, expires_at, invited_by, created_at) VALUES ?',
      [rows],
    );
  }
  return tokens;
}

async function untilUp(port) {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(`http://127.0.0.1:${port}/health/live`);
      return;
    } catch {
      await delay(300);
    }
  }
  throw new Error(`the server on port ${port} did not start`);
}

const admin = await mysql.createConnection({ uri: `${SERVER}/`, timezone: 'Z' });
await admin.query(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4`);
const servers = [];
try {
  execSync('npm run -s migration:run', { cwd: ROOT, env, stdio: 'ignore' });
  const db = await mysql.createConnection({ uri: env.DATABASE_URL, timezone: 'Z' });
  const tokens = await seed(db);
  await db.end();
  const owner = {
    email: 'owner@bench.example',
    token_use: 'id',
    'custom:user_type': 'org',
    'custom:tenant_id': 't1',
    'custom:role': 'owner',
  };
  const cookie = `id_token=${jwt.sign(owner, SECRET, { algorithm: 'HS256', subject: 'owner1', expiresIn: '4h' })}`;

  for (const port of PORTS)
    servers.push(
      spawn('npm', ['start'], { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: 'ignore', detached: true }),
    );
  await Promise.all(PORTS.map(untilUp));

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
  for (const server of servers) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await delay(servers.length ? 7_000 : 0); // the servers drain for 5 s in production
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await admin.end();
}
