import { DataSource } from 'typeorm';
import { parseConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { createTestDatabase, TestDatabase } from './test-database';

/** Reverts the newest migrations down to and including `name` (e.g. 'AddUsersEmailKey'), whatever came after it. */
export async function undoMigrationsThrough(dataSource: DataSource, name: string): Promise<void> {
  for (;;) {
    const [newest] = await dataSource.query('SELECT name FROM migrations ORDER BY timestamp DESC, id DESC LIMIT 1');
    if (!newest) throw new Error(`Migration ${name} is not applied`);
    await dataSource.undoLastMigration();
    if (String(newest.name).startsWith(name)) return;
  }
}

/**
 * A suite of one migration: a fresh database (SQLite, or MariaDB under TEST_DATABASE_URL) migrated up
 * to `name` and without it and every later one, made before the suite and dropped after it. The data
 * source is filled in by beforeAll: `const db = useDatabaseBefore('AddUsersEmailKey')`, then `db.dataSource`.
 */
export function useDatabaseBefore(name: string): { dataSource: DataSource } {
  const db = {} as { dataSource: DataSource; database: TestDatabase };
  beforeAll(async () => {
    db.database = await createTestDatabase();
    const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: db.database.url, DB_MIGRATIONS_RUN: 'false' });
    db.dataSource = new DataSource(dataSourceOptions(config));
    await db.dataSource.initialize();
    await db.dataSource.runMigrations();
    await undoMigrationsThrough(db.dataSource, name);
  });
  afterAll(async () => {
    await db.dataSource.destroy();
    await db.database.drop();
  });
  return db;
}
