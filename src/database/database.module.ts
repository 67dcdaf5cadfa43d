import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';

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
    }),
  ],
})
export class DatabaseModule {}
