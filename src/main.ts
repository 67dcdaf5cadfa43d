import { Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { AppConfig } from './config/app-config';
import { ConfigError } from './config/env-values';
import { describeConfiguration } from './config/config-summary';
import { createApp } from './create-app';
import { ClusteredDataSource } from './database/clustered-data-source';
import { DatabaseStartupError } from './database/database-startup-error';
import { enableGracefulShutdown } from './health/graceful-shutdown';
import { InviteCounters } from './rate-limit/invite-counters';

/** Stops start-up with one plain line on stderr: no stack trace, no colours. */
function fail(message: string): never {
  process.stderr.write(`${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}

/** What went wrong at start-up, as one line that names the problem. */
function startupFailure(error: unknown): string {
  if (error instanceof ConfigError || error instanceof DatabaseStartupError) return error.message;
  const { code, port } = error as NodeJS.ErrnoException & { port?: number };
  if (code === 'EADDRINUSE') return `Port ${port} is already in use: stop the process that holds it or set PORT`;
  if (code === 'EACCES') return `Not allowed to listen on port ${port}: choose a port above 1023 or set PORT`;
  return `Start-up failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** Like app.listen, without Nest's own error line: a failure to listen is reported once, by fail(). */
function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** createApp, then signals and the port: what only a process of its own has. */
async function bootstrap(): Promise<void> {
  try {
    const app = await createApp();
    const config = app.get(AppConfig);
    // Not app.enableShutdownHooks(): it closes at once, and re-raises the signal instead of exiting 0.
    enableGracefulShutdown(app, config.shutdown);
    await listen(app.getHttpServer(), config.port);
    const database = app.get(DataSource);
    const applied = database instanceof ClusteredDataSource ? database.appliedMigrations : undefined;
    new Logger('Bootstrap').log(describeConfiguration(config, applied, app.get(InviteCounters).redisSeen()));
  } catch (error) {
    fail(startupFailure(error));
  }
}

void bootstrap();
