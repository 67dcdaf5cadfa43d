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

  /** The names of the migrations that this process's last run applied (undefined before one): the start-up summary says them. */
  appliedMigrations?: string[];

  override async runMigrations(options?: Parameters<DataSource['runMigrations']>[0]): Promise<Migration[]> {
    const applied =
      this.options.type === 'mysql'
        ? await holdingMigrationLock(this, () => super.runMigrations(options))
        : await super.runMigrations(options);
    this.appliedMigrations = applied.map((migration) => migration.name);
    return applied;
  }
}
