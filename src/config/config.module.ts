import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule as NestConfigModule, ConfigService } from '@nestjs/config';
import { AppConfig, parseConfig } from './app-config';

/**
 * AppConfig for every module, parsed once. Importing this file loads `.env` into process.env
 * (NestConfigModule.forRoot runs as the decorator is evaluated), so that the entry points read it.
 */
@Global()
@Module({
  imports: [
    NestConfigModule.forRoot({
      cache: true,
      // Test suites build their configuration explicitly; a developer's .env must not leak in.
      ignoreEnvFile: process.env.NODE_ENV === 'test',
    }),
  ],
})
export class ConfigModule {
  /** The server's: the configuration that createApp parsed, on which the app's modules depend. */
  static forConfig(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }

  /** The CLI's: process.env, parsed once .env is loaded into it. */
  static fromEnvironment(): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        {
          provide: AppConfig,
          // ConfigService is injected so that .env has been loaded into process.env before parsing.
          inject: [ConfigService],
          useFactory: () => parseConfig(process.env),
        },
      ],
      exports: [AppConfig],
    };
  }
}
