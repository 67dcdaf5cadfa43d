import { DataSource } from 'typeorm';

/** Runs `work` while `table` is renamed away, so that reading or writing it fails. */
export async function withoutTable<T>(dataSource: DataSource, table: string, work: () => Promise<T>): Promise<T> {
  await dataSource.query(`ALTER TABLE ${table} RENAME TO ${table}_away`);
  try {
    return await work();
  } finally {
    await dataSource.query(`ALTER TABLE ${table}_away RENAME TO ${table}`);
  }
}
