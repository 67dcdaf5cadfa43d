import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import { ENTITIES } from './entities';

/** One place that turns configuration into TypeORM options: the app, the CLI and ormconfig.ts share it. */
export function dataSourceOptions(config: Pick<AppConfig, 'database' | 'migrationsRun'>): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: config.migrationsRun,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
  };
  const { database } = config;
  if (database.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: database.url,
      timezone: 'Z',
      charset: 'utf8mb4_unicode_ci',
      connectTimeout: 5_000,
      // failoverHosts: DATABASE_URL's hosts when it lists several (FailoverMysql's pools).
      extra: { connectionLimit: 10, ...(database.hosts ? { failoverHosts: database.hosts } : {}) },
    };
  }
  // TypeORM makes the file's directory when it opens the database (initialize()), where a failure is the database's.
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.database,
    // WAL lets readers run beside the single writer; busy_timeout waits out a writer instead of failing.
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
    },
  };
}
