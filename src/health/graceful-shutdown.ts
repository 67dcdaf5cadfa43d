import { INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { ShutdownConfig } from '../config/app-config';
import { ShutdownState } from './shutdown-state';

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

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
 * running after `graceMs` is cut short with exit code 1; so is a second signal.
 */
export function enableGracefulShutdown(app: INestApplication, config: ShutdownConfig): void {
  const logger = new Logger('Shutdown');
  let started = false;

  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    if (started) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    started = true;
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
