import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseConfig } from '../config/database-config';
import { AtomicWriter } from './atomic-writer';
import { ClusteredDataSource } from './clustered-data-source';
import { dataSourceOptions } from './data-source-options';
import { DatabaseStartupError } from './database-startup-error';
import { Leases } from './leases';
import { MultiStatementPool } from './multi-statement-pool';
import { PreparedStatements } from './prepared-statements';
import { TenantStatusReader } from './tenant-status-reader';

/**
 * The database for the whole app: TypeORM's DataSource (global of its own), and the ways past it
 * that the stores use on the paths that carry load: PreparedStatements, the MultiStatementPool and
 * the AtomicWriter; the TenantStatusReader that every feature of a tenant's people checks; and Leases.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config),
        // Fail fast at start-up rather than retrying for a minute with a broken URL.
        retryAttempts: 2,
        retryDelay: 1_000,
      }),
      dataSourceFactory: async (options) => {
        try {
          return await new ClusteredDataSource(options!).initialize();
        } catch (error) {
          throw new DatabaseStartupError(error, databaseOf(options!));
        }
      },
    }),
  ],
  providers: [PreparedStatements, MultiStatementPool, AtomicWriter, TenantStatusReader, Leases],
  exports: [PreparedStatements, MultiStatementPool, AtomicWriter, TenantStatusReader, Leases],
})
export class DatabaseModule {}

/** The configuration that the options were made from: the error names the database by it. */
function databaseOf(options: DataSourceOptions): DatabaseConfig {
  return options.type === 'mysql'
    ? { type: 'mysql', url: options.url! }
    : { type: 'sqlite', database: String(options.database) };
}
