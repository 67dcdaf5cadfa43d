import 'reflect-metadata';
import { config as loadDotenv } from 'dotenv';
import { DataSource } from 'typeorm';
import { parseConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/database/data-source-options';

loadDotenv({ quiet: true });

/** The DataSource the TypeORM CLI uses (`npm run migration:run`). */
export default new DataSource({ ...dataSourceOptions(parseConfig(process.env)), migrationsRun: false });
