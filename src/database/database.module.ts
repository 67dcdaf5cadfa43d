import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { describeDatabase } from '../config/config-summary';
import { AtomicWriter } from './atomic-writer';
import { dataSourceOptions } from './data-source-options';
import { MultiStatementPool } from './multi-statement-pool';
import { TenantStatusReader } from './tenant-status-reader';

/** The database could not be opened (or migrated) at start-up: main.ts prints it as one line. */
export class DatabaseStartupError extends Error {
  constructor(
    override readonly cause: unknown,
    /** Where the database is (describeDatabase): never the credentials. */
    readonly where: string,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'DatabaseStartupError';
  }
}

/**
 * The database for the whole app: TypeORM's DataSource (global of its own), the MultiStatementPool,
 * the AtomicWriter, and the TenantStatusReader that every feature of a tenant's people checks.
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
          return await new DataSource(options!).initialize();
        } catch (error) {
          throw new DatabaseStartupError(error, describeDataSource(options!));
        }
      },
    }),
  ],
  providers: [MultiStatementPool, AtomicWriter, TenantStatusReader],
  exports: [MultiStatementPool, AtomicWriter, TenantStatusReader],
})
export class DatabaseModule {}

function describeDataSource(options: DataSourceOptions): string {
  return describeDatabase(
    options.type === 'mysql' ? { type: 'mysql', url: options.url! } : { type: 'sqlite', database: String(options.database) },
  );
}
