import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { APP_OPTIONS, configureApp } from './app.setup';
import { parseConfig } from './config/app-config';

/**
 * The service as `npm start` serves it, initialised (migrations applied, workers started) but not
 * yet listening: main.ts listens on it and stops it on SIGTERM; a QA suite may serve it in its own
 * process (examples/qa-suite). The configuration is read from `env`: by default process.env, into
 * which importing this module loaded `.env` (not when NODE_ENV=test). Built, this is
 * `dist/src/create-app.js`, the package's `main`. A failure throws: a ConfigError, a
 * DatabaseStartupError or the error itself.
 *
 * Start-up logs wait for the pino logger that configureApp installs; when start-up fails they are
 * dropped (no flush to Nest's coloured console logger), so that the failure is told once.
 */
export async function createApp(env: NodeJS.ProcessEnv = process.env): Promise<NestExpressApplication> {
  const app = configureApp(
    // Which modules exist depends on the configuration.
    await NestFactory.create<NestExpressApplication>(AppModule.forConfig(parseConfig(env)), {
      ...APP_OPTIONS,
      bufferLogs: true,
      autoFlushLogs: false,
      abortOnError: false,
    }),
  );
  app.flushLogs();
  await app.init();
  return app;
}
