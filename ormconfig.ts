import 'reflect-metadata';
import { config as loadDotenv } from 'dotenv';
import { parseConfig } from './src/config/app-config';
import { ClusteredDataSource } from './src/database/clustered-data-source';
import { dataSourceOptions } from './src/database/data-source-options';

loadDotenv({ quiet: true });

/** The DataSource the TypeORM CLI uses (`npm run migration:run`: run once across processes, see ClusteredDataSource). */
export default new ClusteredDataSource({ ...dataSourceOptions(parseConfig(process.env)), migrationsRun: false });
