// One instance on one MariaDB server and one Redis, against two instances on the local Galera
// cluster and Redis Cluster (scripts/local-cluster.sh up): the harness's get, accept and invite
// (docs/deploying.md, "Clustered MySQL and Redis"), 32 connections in all, one after the other.
// Needs a build (npm run build), MariaDB as root on 127.0.0.1:3306, Redis on 6379, the local cluster
// up; uses ports 39621-39623.   node bench/cluster-pairs.mjs   (DURATION=6 seconds per run)
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ownerCookie, seedTenantWithInvitations, stopServers, untilReady } from './support/bench-service.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const DURATION = Number(process.env.DURATION ?? 6);
const SECRET = `bench-${randomBytes(16).toString('hex')}`;
const INVITATIONS = 40_000;
const DATABASE = `bench_cluster_${Date.now()}`;

const SETUPS = {
  'one instance, one server': {
    admin: 'mysql://root@127.0.0.1:3306',
    instances: [{ port: 39621, DATABASE_URL: `mysql://root@127.0.0.1:3306/${DATABASE}` }],
    redis: { REDIS_URL: 'redis://127.0.0.1:6379' },
  },
  'two instances, Galera and Redis Cluster': {
    admin: 'mysql://root@127.0.0.1:33061',
    instances: [
      { port: 39622, DATABASE_URL: `mysql://root@127.0.0.1:33061,127.0.0.1:33062/${DATABASE}` },
      { port: 39623, DATABASE_URL: `mysql://root@127.0.0.1:33062,127.0.0.1:33063/${DATABASE}` },
    ],
    redis: { REDIS_CLUSTER_NODES: '127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103' },
  },
};

const baseEnv = {
  ...process.env,
  AUTH_JWT_SECRET: SECRET,
  INVITE_RATE_LIMIT: '1000000',
  NODE_ENV: 'production',
  IDENTITY_STORE: 'local',
  DB_MIGRATIONS_RUN: 'false',
  REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:`,
  LOG_LEVEL: 'warn',
};
delete baseEnv.SMTP_URL;
delete baseEnv.REDIS_URL;
delete baseEnv.REDIS_CLUSTER_NODES;

const cookie = ownerCookie(SECRET);

const results = [];
for (const [name, setup] of Object.entries(SETUPS)) {
  const admin = await mysql.createConnection({ uri: `${setup.admin}/`, timezone: 'Z' });
  await admin.query(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4`);
  const servers = [];
  try {
    const env = { ...baseEnv, ...setup.redis };
    execSync('npm run -s migration:run', {
      cwd: ROOT,
      env: { ...env, DATABASE_URL: setup.instances[0].DATABASE_URL },
      stdio: 'ignore',
    });
    const db = await mysql.createConnection({ uri: `${setup.admin}/${DATABASE}`, timezone: 'Z' });
    const tokens = await seedTenantWithInvitations(db, INVITATIONS);
    await db.end();
    for (const { port, DATABASE_URL } of setup.instances) {
      servers.push(
        spawn('node', ['dist/src/main.js'], {
          cwd: ROOT,
          env: { ...env, DATABASE_URL, PORT: String(port) },
          stdio: 'ignore',
          detached: true,
        }),
      );
    }
    await Promise.all(setup.instances.map(({ port }) => untilReady(port)));

    let sequence = 0;
    let nextToken = 0;
    const scenarios = {
      get: () => [
        {
          method: 'GET',
          setupRequest: (r) => ({
            ...r,
            path: `/api/invitations/${tokens[Math.floor(Math.random() * tokens.length)]}`,
          }),
        },
      ],
      accept: () => [
        {
          method: 'POST',
          setupRequest: (r) => ({ ...r, path: `/api/invitations/${tokens[nextToken++ % tokens.length]}` }),
        },
      ],
      invite: () => [
        {
          method: 'POST',
          path: '/api/org/invite',
          headers: { cookie, 'content-type': 'application/json' },
          setupRequest: (r) => ({
            ...r,
            body: JSON.stringify({ email: `new-${sequence++}@bench.example`, role: 'member' }),
          }),
        },
      ],
    };
    const per = 32 / setup.instances.length;
    const run = (scenario, duration) =>
      Promise.all(
        setup.instances.map(({ port }) =>
          autocannon({ url: `http://127.0.0.1:${port}`, requests: scenario(), connections: per, duration }),
        ),
      );
    for (const [scenario, requests] of Object.entries(scenarios)) {
      await run(requests, 1); // warm-up (accept: spends tokens, of which there are enough)
      const measured = await run(requests, DURATION);
      const rps = measured.reduce((sum, r) => sum + r.requests.average, 0);
      const p99 = Math.max(...measured.map((r) => r.latency.p99));
      const failures = measured.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      const fives = measured.reduce((sum, r) => sum + (r['5xx'] ?? 0), 0);
      results.push({ setup: name, scenario, rps: Math.round(rps), p99, failures, fives });
      console.log(`${name}: ${scenario} ${Math.round(rps)} req/s, p99 ${p99} ms, non-2xx ${failures} (5xx ${fives})`);
    }
  } finally {
    await stopServers(servers);
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await admin.end();
  }
}
console.log(JSON.stringify(results));
