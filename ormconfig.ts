import 'reflect-metadata';
import { config as loadDotenv } from 'dotenv';
import { parseConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/database/data-source-options';
import { MigrationRunDataSource, MigrationRunLogger } from './src/database/migration-run';

loadDotenv({ quiet: true });
const config = parseConfig(process.env);

/**
 * The DataSource the TypeORM CLI uses (`npm run migration:run`: run once across processes, see ClusteredDataSource;
 * one line per migration, the SQL at LOG_LEVEL=debug, see MigrationRunLogger).
 */
export default new MigrationRunDataSource(
  { ...dataSourceOptions(config), migrationsRun: false },
  new MigrationRunLogger(config.logLevel),
);
