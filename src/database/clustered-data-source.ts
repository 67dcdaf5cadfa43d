import * as mysql2 from 'mysql2';
import { DataSource, DataSourceOptions, Migration } from 'typeorm';
import { FailoverMysql, MysqlModule } from './failover-pool';
import { holdingMigrationLock } from './migration-lock';

/**
 * The service's DataSource (the app, the CLI and `npm run migration:run` make theirs from this
 * class), with what a cluster of MySQL servers needs on top of TypeORM's: pools that fail over
 * between DATABASE_URL's hosts (FailoverMysql, given to TypeORM as its mysql2 module), and
 * migrations that run once however many processes start them at the same time (the migration lock).
 */
export class ClusteredDataSource extends DataSource {
  /** `driver`: on MySQL, the mysql2 module to make the pools with (a stand-in, in tests); mysql2 by default. */
  constructor(options: DataSourceOptions) {
    super(
      options.type === 'mysql'
        ? {
            ...options,
            driver: new FailoverMysql((options.driver ?? mysql2) as MysqlModule),
            connectorPackage: 'mysql2',
          }
        : options,
    );
  }

  override async runMigrations(options?: Parameters<DataSource['runMigrations']>[0]): Promise<Migration[]> {
    if (this.options.type !== 'mysql') return super.runMigrations(options);
    return holdingMigrationLock(this, () => super.runMigrations(options));
  }
}
