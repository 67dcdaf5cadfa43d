import { INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { ShutdownConfig } from '../config/server-config';
import { HttpLogger } from '../logging/http-logger';
import { ShutdownState } from './shutdown-state';

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
/**
 * A stop request often arrives twice at once: `npm start` forwards the signal it gets, and
 * systemd (KillMode=control-group), a terminal's Ctrl-C or `kill -- -PGID` signal npm and the
 * server alike. Only a signal later than this after the first means "stop now".
 */
export const REPEATED_SIGNAL_WINDOW_MS = 1_000;

/**
 * Stops accepting connections and resolves once every in-flight request has been answered.
 * Keep-alive connections are closed as soon as they are idle, including those that finish
 * their last response after the server stopped listening.
 */
export function closeHttpServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * On SIGTERM or SIGINT: readiness fails first, then after `drainMs` (time for the load balancer
 * to notice) the server stops accepting and in-flight requests finish, then Nest closes the
 * database and the other clients (shutdown hooks), and the process exits 0. Whatever is still
 * running after `graceMs` is cut short with exit code 1; so is a second signal, unless it is the
 * same request delivered twice (REPEATED_SIGNAL_WINDOW_MS). Log lines that a slow reader has not
 * taken yet get a short wait before the exit, within `graceMs`, and are lost after it.
 */
export function enableGracefulShutdown(app: INestApplication, config: ShutdownConfig): void {
  const logger = new Logger('Shutdown');
  const logLines = app.get(HttpLogger);
  let startedAt: number | undefined;

  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    if (startedAt !== undefined) {
      if (Date.now() - startedAt < REPEATED_SIGNAL_WINDOW_MS) return;
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    startedAt = Date.now();
    setTimeout(() => {
      logger.error(`Still shutting down ${config.graceMs} ms after ${signal}: exiting now`);
      process.exit(1);
    }, config.graceMs).unref();

    app.get(ShutdownState).begin();
    logger.log(`${signal}: readiness fails from now on; draining for ${config.drainMs} ms`);
    await delay(config.drainMs);
    logger.log('No longer accepting connections; waiting for in-flight requests');
    await closeHttpServer(app.getHttpServer());
    await app.close();
    logger.log('Shut down cleanly');
    await logLines.flush(startedAt + config.graceMs);
    process.exit(0);
  };

  for (const signal of SIGNALS) {
    process.on(signal, () => {
      shutDown(signal).catch((error: unknown) => {
        logger.error(`Shutdown failed: ${error instanceof Error ? error.stack : String(error)}`);
        process.exit(1);
      });
    });
  }
}
