import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { APP_OPTIONS, configureApp } from './app.setup';
import { AppConfig } from './config/app-config';
import { enableGracefulShutdown } from './health/graceful-shutdown';

async function bootstrap(): Promise<void> {
  // Start-up logs wait for the pino logger that configureApp installs.
  const app = configureApp(await NestFactory.create<NestExpressApplication>(AppModule, { ...APP_OPTIONS, bufferLogs: true }));
  const config = app.get(AppConfig);
  // Not app.enableShutdownHooks(): it closes at once, and re-raises the signal instead of exiting 0.
  enableGracefulShutdown(app, config.shutdown);
  await app.listen(config.port);
  new Logger('Bootstrap').log(`Listening on port ${config.port}`);
}

void bootstrap();
