import { Global, Module } from '@nestjs/common';
import { ConfigModule as NestConfigModule, ConfigService } from '@nestjs/config';
import { AppConfig, parseConfig } from './app-config';

@Global()
@Module({
  imports: [
    NestConfigModule.forRoot({
      cache: true,
      // Test suites build their configuration explicitly; a developer's .env must not leak in.
      ignoreEnvFile: process.env.NODE_ENV === 'test',
    }),
  ],
  providers: [
    {
      provide: AppConfig,
      // ConfigService is injected so that .env has been loaded into process.env before parsing.
      inject: [ConfigService],
      useFactory: () => parseConfig(process.env),
    },
  ],
  exports: [AppConfig],
})
export class ConfigModule {}
