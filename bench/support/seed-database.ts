/**
 * What the TypeScript benchmarks share (scale-bench.ts, roles-bench.ts): a throw-away database of
 * either dialect, the SQL that differs between the dialects for seeding it with INSERT … SELECT over
 * a sequence, and the way `npm start` runs the server.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { comparableEmail } from '../../src/common/email-comparison';
import { ROOT } from '../../test/support/server-process';

export type Dialect = 'mariadb' | 'sqlite';

/** Time of the seeded rows: a second apart from here. */
export const T0 = '2026-01-01 00:00:00';

/** The SQL that differs between the dialects, for the seed. */
export interface SeedSql {
  /** A table of `seq` from 1 to n. */
  seq(n: number): string;
  cat(...parts: string[]): string;
  /** T0 plus `seconds` (an SQL expression), as a DATETIME(3) value. */
  at(seconds: string): string;
  /** emailKey of an address that is ASCII lower case already (emailKey hashes comparableEmail). */
  key(address: string): string;
  pad(expression: string, width: number): string;
}

const MARIADB_SQL: SeedSql = {
  seq: (n) => `seq_1_to_${n}`,
  cat: (...parts) => `CONCAT(${parts.join(', ')})`,
  at: (seconds) => `(TIMESTAMP '${T0}' + INTERVAL (${seconds}) SECOND)`,
  key: (address) => `SHA2(${address}, 256)`,
  pad: (expression, width) => `LPAD(${expression}, ${width}, '0')`,
};

const SQLITE_SQL: SeedSql = {
  seq: (n) => `(SELECT seq FROM bench_seq WHERE seq <= ${n}) AS s`,
  cat: (...parts) => `(${parts.join(' || ')})`,
  at: (seconds) => `strftime('%Y-%m-%d %H:%M:%f', '${T0}', '+' || (${seconds}) || ' seconds')`,
  key: (address) => `bench_email_key(${address})`,
  pad: (expression, width) => `substr('${'0'.repeat(width)}' || ${expression}, -${width})`,
};

export const seedSql = (dialect: Dialect): SeedSql => (dialect === 'sqlite' ? SQLITE_SQL : MARIADB_SQL);

export interface Database {
  url: string;
  drop(): Promise<void>;
  /** Ends this script's connection, leaving the database. */
  close(): Promise<void>;
}

/** A database made for the run: a file in a temporary folder, or a MariaDB database on `mysqlServer`. */
export async function createDatabase(dialect: Dialect, name: string, mysqlServer: string): Promise<Database> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `${name.replace(/_/g, '-')}-`));
    return {
      url: `sqlite:${join(dir, 'bench.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
      close: async () => undefined,
    };
  }
  const database = `${name}_${Date.now()}`;
  const admin = new DataSource({ type: 'mysql', url: `${mysqlServer}/` });
  await admin.initialize();
  await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  return {
    url: `${mysqlServer}/${database}`,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.destroy();
    },
    close: () => admin.destroy(),
  };
}

/** On SQLite, what SeedSql uses: `bench_email_key()`, and `bench_seq`, numbers up to `count` (the seed drops it). */
export function prepareSqliteSeed(dataSource: DataSource, count: number): void {
  const db = (
    dataSource.driver as unknown as {
      databaseConnection: {
        function(name: string, options: { deterministic: boolean }, run: (value: unknown) => string): void;
        exec(sql: string): void;
        prepare(sql: string): { run(...parameters: unknown[]): void };
      };
    }
  ).databaseConnection;
  db.function('bench_email_key', { deterministic: true }, (address: unknown) =>
    createHash('sha256')
      .update(comparableEmail(String(address)), 'utf8')
      .digest('hex'),
  );
  db.exec('CREATE TABLE bench_seq (seq INTEGER PRIMARY KEY)');
  db.prepare(
    'WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ?) INSERT INTO bench_seq SELECT n FROM s',
  ).run(count);
}

/** The NODE_OPTIONS that `npm start` gives the server (package.json). */
export function startNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return (/NODE_OPTIONS="([^"$]*)/.exec(scripts.start)?.[1].trim() ?? '').split(/\s+/).filter(Boolean);
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * A benchmark's run on each database in turn: a throw-away database made, seeded, measured and
 * dropped (even when the measuring fails), with a heading line first; the process exits 1 on an error.
 */
export function runOnEach(
  dialects: Dialect[],
  name: string,
  heading: (dialect: Dialect) => string,
  run: { seed: (dialect: Dialect, url: string) => Promise<void>; measure: (url: string) => Promise<void> },
  mysqlServer: string,
): void {
  (async () => {
    for (const dialect of dialects) {
      console.log(`\n== ${dialect}: ${heading(dialect)}`);
      const database = await createDatabase(dialect, name, mysqlServer);
      try {
        await run.seed(dialect, database.url);
        await run.measure(database.url);
      } finally {
        await database.drop();
      }
    }
  })().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
