import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

/** A fresh, empty database for one suite (or one fleet of app instances), dropped afterwards. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export const e2eDatabase = (): 'sqlite' | 'mariadb' => (process.env.E2E_DATABASE === 'mariadb' ? 'mariadb' : 'sqlite');

/**
 * SQLite: a file in a temp folder (so that several app instances can share it).
 * MariaDB: a new database named test_e2e_<random> on TEST_DATABASE_URL's server.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (e2eDatabase() === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tenant-e2e-'));
    return {
      url: `sqlite:${join(dir, 'test.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = new URL(process.env.TEST_DATABASE_URL ?? '');
  if (!base.pathname.includes('test')) {
    throw new Error(`TEST_DATABASE_URL must name a database whose name contains "test", got "${base.pathname}"`);
  }
  const name = `test_e2e_${randomBytes(6).toString('hex')}`;
  const admin = await createConnection({ uri: base.toString() });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const connection = await createConnection({ uri: base.toString() });
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}
