import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';

/** An in-memory SQLite database on the real migrations, for unit tests of the stores. */
export function memoryDataSource(): Promise<DataSource> {
  return new DataSource(dataSourceOptions({ database: { type: 'sqlite', database: ':memory:' }, migrationsRun: true })).initialize();
}
