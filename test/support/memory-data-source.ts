import { DataSource } from 'typeorm';
import { AuditRecorder } from '../../src/audit/audit-recorder';
import { Clock } from '../../src/common/clock';
import { IdGenerator } from '../../src/common/id-generator';
import { parseConfig } from '../../src/config/app-config';
import { AtomicWriter } from '../../src/database/atomic-writer';
import { MultiStatementPool } from '../../src/database/multi-statement-pool';
import { dataSourceOptions } from '../../src/database/data-source-options';

/** An in-memory SQLite database on the real migrations, for unit tests of the stores. */
export function memoryDataSource(): Promise<DataSource> {
  return new DataSource(dataSourceOptions({ database: { type: 'sqlite', database: ':memory:' }, migrationsRun: true })).initialize();
}

/** The real AuditRecorder on `dataSource` (without webhooks), for unit tests of the stores that write audit events. */
export function auditRecorderOn(dataSource: DataSource, clock: Clock = new Clock()): AuditRecorder {
  return new AuditRecorder(new AtomicWriter(dataSource, new MultiStatementPool(dataSource)), clock, new IdGenerator(), parseConfig({}));
}
