import { createHash, randomBytes } from 'node:crypto';
import {
  constants,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowDataPacket } from 'mysql2';
import { Connection, createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { parseConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';

/** A fresh database for one suite (or one fleet of app instances), dropped afterwards. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** No tables at all, for what must see migrations run (or pending); otherwise every migration is applied. */
  empty?: boolean;
}

export const e2eDatabase = (): 'sqlite' | 'mariadb' => (process.env.E2E_DATABASE === 'mariadb' ? 'mariadb' : 'sqlite');

const ROOT = join(__dirname, '..', '..');

/**
 * The migrations as they are now: a template made from other migrations is never used. The files'
 * text, so that a migration edited while developing makes a new template too.
 */
const migrationsHash = (): string => {
  const hash = createHash('sha256');
  const folder = join(ROOT, 'migrations');
  for (const name of readdirSync(folder).sort()) hash.update(name).update(readFileSync(join(folder, name)));
  return hash.digest('hex').slice(0, 12);
};

/**
 * SQLite: a file in a temp folder (so that several app instances can share it). MariaDB: a new
 * database named test_e2e_<random> on TEST_DATABASE_URL's server. Unless `empty`, it is a copy of a
 * template that every migration was applied to once (per machine and set of migrations, not per
 * suite): an app that starts on it finds nothing to migrate, and a suite starts in milliseconds.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  return e2eDatabase() === 'sqlite' ? sqliteDatabase(options) : mariadbDatabase(options);
}

async function sqliteDatabase({ empty }: TestDatabaseOptions): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'tenant-e2e-'));
  const file = join(dir, 'test.sqlite');
  if (!empty) copyFileSync(await sqliteTemplate(), file, constants.COPYFILE_FICLONE);
  return { url: `sqlite:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** The migrated SQLite file that databases are copied from: made once, by whichever worker needs it first. */
async function sqliteTemplate(): Promise<string> {
  const template = join(tmpdir(), `tenant-e2e-template-${migrationsHash()}.sqlite`);
  if (existsSync(template)) return template;
  const dir = mkdtempSync(join(tmpdir(), 'tenant-e2e-template-'));
  const building = join(dir, 'template.sqlite');
  await migrate(`sqlite:${building}`);
  // Closing the data source checkpointed the WAL into the file: the file alone is the database.
  renameSync(building, template); // atomic: another worker sees the whole file or none
  rmSync(dir, { recursive: true, force: true });
  return template;
}

/** Applies every migration to the database at `url`, as the app does at start-up. */
async function migrate(url: string): Promise<void> {
  const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url, DB_MIGRATIONS_RUN: 'false' });
  const dataSource = await new DataSource(dataSourceOptions(config)).initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

function mariadbServer(): URL {
  const base = new URL(process.env.TEST_DATABASE_URL ?? '');
  if (!base.pathname.includes('test')) {
    throw new Error(`TEST_DATABASE_URL must name a database whose name contains "test", got "${base.pathname}"`);
  }
  return base;
}

async function mariadbDatabase({ empty }: TestDatabaseOptions): Promise<TestDatabase> {
  const base = mariadbServer();
  const name = `test_e2e_${randomBytes(6).toString('hex')}`;
  const admin = await createConnection({ uri: base.toString(), multipleStatements: true });
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    if (!empty) await admin.query(await copyOfTemplate(admin, name));
  } finally {
    await admin.end();
  }
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

/**
 * The statements that make database `name` a copy of the template: each table as SHOW CREATE TABLE
 * gives it (foreign keys included, which CREATE TABLE … LIKE leaves out), and the rows of those
 * that migrations filled (the migrations table, seeded catalogues), their stored columns only.
 */
async function copyOfTemplate(admin: Connection, name: string): Promise<string> {
  const template = await mariadbTemplate(admin);
  const [tables] = await admin.query<RowDataPacket[]>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name',
    [template],
  );
  const statements = [`USE \`${name}\``, 'SET FOREIGN_KEY_CHECKS = 0'];
  for (const { name: table } of tables as { name: string }[]) {
    const [[created]] = await admin.query<RowDataPacket[]>(`SHOW CREATE TABLE \`${template}\`.\`${table}\``);
    statements.push(created['Create Table'] as string);
    const [[{ filled }]] = await admin.query<RowDataPacket[]>(
      `SELECT EXISTS (SELECT 1 FROM \`${template}\`.\`${table}\`) AS filled`,
    );
    if (!filled) continue;
    const [columns] = await admin.query<RowDataPacket[]>(
      "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = ? AND table_name = ? AND extra NOT LIKE '%GENERATED%' ORDER BY ordinal_position",
      [template, table],
    );
    const list = columns.map((column) => `\`${column.name as string}\``).join(', ');
    statements.push(`INSERT INTO \`${table}\` (${list}) SELECT ${list} FROM \`${template}\`.\`${table}\``);
  }
  statements.push('SET FOREIGN_KEY_CHECKS = 1', `USE \`${mariadbServer().pathname.slice(1)}\``);
  return statements.join(';\n');
}

/**
 * The migrated template database on TEST_DATABASE_URL's server (test_template_<migrations>), made
 * once under a server lock so that workers do not build it twice; older templates are dropped then.
 * Complete when its migrations table lists every migration.
 */
async function mariadbTemplate(admin: Connection): Promise<string> {
  const template = `test_template_${migrationsHash()}`;
  const complete = async () => {
    const [rows] = await admin.query<RowDataPacket[]>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_name = ?',
      [template, 'migrations'],
    );
    if (!rows.length) return false;
    const [[{ applied }]] = await admin.query<RowDataPacket[]>(
      `SELECT COUNT(*) AS applied FROM \`${template}\`.migrations`,
    );
    return Number(applied) === readdirSync(join(ROOT, 'migrations')).filter((file) => /^\d+-/.test(file)).length;
  };
  if (await complete()) return template;
  await admin.query("SELECT GET_LOCK('tenant_e2e_template', 300)");
  try {
    if (await complete()) return template;
    const [old] = await admin.query<RowDataPacket[]>(
      "SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE 'test\\_template\\_%'",
    );
    for (const { name } of old) await admin.query(`DROP DATABASE \`${name as string}\``);
    await admin.query(`CREATE DATABASE \`${template}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const url = mariadbServer();
    url.pathname = `/${template}`;
    await migrate(url.toString());
    return template;
  } finally {
    await admin.query("SELECT RELEASE_LOCK('tenant_e2e_template')");
  }
}
