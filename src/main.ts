import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { APP_OPTIONS, configureApp } from './app.setup';
import { AppConfig, ConfigError } from './config/app-config';
import { enableGracefulShutdown } from './health/graceful-shutdown';

/**
 * ConfigModule reads `.env` and parses the configuration, once. A bad setting stops start-up
 * with one line that names the variable; start-up logs wait for the pino logger that
 * configureApp installs, and are dropped with it.
 */
async function createApp(): Promise<NestExpressApplication> {
  try {
    return await NestFactory.create<NestExpressApplication>(AppModule, {
      ...APP_OPTIONS,
      bufferLogs: true,
      autoFlushLogs: false,
      abortOnError: false,
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) {
      Logger.flush();
      throw error;
    }
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

async function bootstrap(): Promise<void> {
  const app = configureApp(await createApp());
  app.flushLogs();
  const config = app.get(AppConfig);
  // Not app.enableShutdownHooks(): it closes at once, and re-raises the signal instead of exiting 0.
  enableGracefulShutdown(app, config.shutdown);
  await app.listen(config.port);
  new Logger('Bootstrap').log(`Listening on port ${config.port}`);
}

void bootstrap();
