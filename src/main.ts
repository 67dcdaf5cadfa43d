import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { APP_OPTIONS, configureApp } from './app.setup';
import { config as loadDotenv } from 'dotenv';
import { AppConfig, ConfigError, parseConfig } from './config/app-config';
import { enableGracefulShutdown } from './health/graceful-shutdown';

/** A bad setting stops start-up with one line that names the variable, before anything starts. */
function checkConfiguration(): void {
  loadDotenv({ quiet: true });
  try {
    parseConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

async function bootstrap(): Promise<void> {
  checkConfiguration();
  // Start-up logs wait for the pino logger that configureApp installs.
  const app = configureApp(await NestFactory.create<NestExpressApplication>(AppModule, { ...APP_OPTIONS, bufferLogs: true }));
  const config = app.get(AppConfig);
  // Not app.enableShutdownHooks(): it closes at once, and re-raises the signal instead of exiting 0.
  enableGracefulShutdown(app, config.shutdown);
  await app.listen(config.port);
  new Logger('Bootstrap').log(`Listening on port ${config.port}`);
}

void bootstrap();
