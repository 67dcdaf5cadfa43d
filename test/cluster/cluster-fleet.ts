import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { SmtpCatcher } from '../support/smtp-catcher';
import { createTestApp, TestApp } from '../support/test-app';
import { TestDatabase } from '../support/test-database';
import { testRedisPrefix } from '../support/test-redis';

/** The local cluster (scripts/local-cluster.sh env): three Galera nodes and three Redis masters. */
export const GALERA_NODES = (process.env.TEST_GALERA_NODES ?? '').split(',');
export const REDIS_CLUSTER_NODES = process.env.TEST_REDIS_CLUSTER_NODES ?? '';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'local-cluster.sh');

/** Stops or starts one node of the local cluster (`stop galera 1`, `start redis 2`). */
export async function clusterNode(action: 'stop' | 'start', kind: 'galera' | 'redis', node: number): Promise<void> {
  await promisify(execFile)(SCRIPT, [action, kind, String(node)], { timeout: 150_000 });
}

/** A statement on one Galera node (1-3), as root. */
export async function onNode<T = unknown>(node: number, sql: string, params: unknown[] = []): Promise<T> {
  const [host, port] = GALERA_NODES[node - 1].split(':');
  const connection = await createConnection({ host, port: Number(port), user: 'root', multipleStatements: true });
  try {
    return (await connection.query(sql, params))[0] as T;
  } finally {
    await connection.end();
  }
}

/** A fresh database on the cluster, whose URL for instance `i` lists node i+1 first, then the next node. */
export async function createClusterDatabase(): Promise<{
  name: string;
  urlFor(node: number): string;
  drop(): Promise<void>;
}> {
  const name = `test_cluster_${randomBytes(6).toString('hex')}`;
  await onNode(1, `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  return {
    name,
    urlFor: (node) => `mysql://root@${GALERA_NODES[node - 1]},${GALERA_NODES[node % GALERA_NODES.length]}/${name}`,
    drop: async () => void (await onNode(1, `DROP DATABASE IF EXISTS \`${name}\``)),
  };
}

/**
 * Two instances of the service in this process, the first on Galera node 1 (then node 2), the
 * second on node 2 (then node 3), both on the Redis Cluster and one SMTP catcher, started at
 * the same time: both run the migrations at start-up, which the migration lock serialises.
 */
export interface ClusterFleet {
  apps: [TestApp, TestApp];
  smtp: SmtpCatcher;
  database: { name: string; drop(): Promise<void> };
  prefix: string;
  close(): Promise<void>;
}

export async function startClusterFleet(env: Record<string, string> = {}): Promise<ClusterFleet> {
  const database = await createClusterDatabase();
  const smtp = await SmtpCatcher.start();
  const prefix = testRedisPrefix();
  const shared = { REDIS_CLUSTER_NODES, REDIS_KEY_PREFIX: prefix, SMTP_URL: smtp.url, ...env };
  const on = (node: number): TestDatabase => ({ url: database.urlFor(node), drop: async () => undefined });
  const apps = (await Promise.all([
    createTestApp({ database: on(1), env: shared }),
    createTestApp({ database: on(2), env: shared }),
  ])) as [TestApp, TestApp];
  return {
    apps,
    smtp,
    database,
    prefix,
    close: async () => {
      await Promise.all(apps.map((app) => app.close()));
      await smtp.stop();
      await database.drop();
    },
  };
}
