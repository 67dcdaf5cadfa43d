import { DataSource } from 'typeorm';
import { leasesTable } from '../../migrations/1765600000000-CreateLeases';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { Leases, LeaseTerms, LeaseUnavailableError } from './leases';
import { PreparedStatements } from './prepared-statements';

/**
 * The lease `migrations`: held 60 s at a time, renewed every 15 s while they run (a holder that
 * died frees it after a minute); an instance waits 10 minutes for another's, then start-up fails.
 */
export const MIGRATION_LEASE: LeaseTerms = { ttlMs: 60_000, waitMs: 10 * 60_000, retryMs: 250 };
const LEASE_NAME = 'migrations';

/**
 * Runs `migrate` holding the migration lease, on MySQL: migrations then run once however many
 * processes start them at the same time, on one node or on several (the lease is a row, never
 * GET_LOCK, which each Galera node keeps to itself). The others wait for it, then find nothing
 * left to apply. SQLite needs none: its one writer already excludes the others.
 */
export async function holdingMigrationLock<T>(dataSource: DataSource, migrate: () => Promise<T>): Promise<T> {
  await createLeasesTable(dataSource);
  const leases = new Leases(new PreparedStatements(dataSource), new Clock(), new IdGenerator());
  try {
    return await leases.holding(LEASE_NAME, MIGRATION_LEASE, migrate);
  } catch (error) {
    if (!(error instanceof LeaseUnavailableError && error.leaseName === LEASE_NAME)) throw error;
    throw new Error(`Another process has held the migration lock for ${MIGRATION_LEASE.waitMs / 60_000} minutes`);
  }
}

/**
 * The lease's table, which must exist before the first migration: made from the definition of its
 * migration (CreateLeases, which then finds it), as CREATE TABLE IF NOT EXISTS, since processes
 * that start at once all send it. TypeORM's createTable(table, true) looks first, then creates: two
 * processes could both find none.
 */
async function createLeasesTable(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    runner.enableSqlMemory();
    await runner.createTable(leasesTable(dataSource.options.type));
    const [create] = runner.getMemorySql().upQueries;
    runner.disableSqlMemory();
    await runner.query(create.query.replace(/^CREATE TABLE /, 'CREATE TABLE IF NOT EXISTS '));
  } finally {
    await runner.release();
  }
}
