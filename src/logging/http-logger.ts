import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { DestinationStream, Level, Logger, LoggerOptions } from 'pino';
import { isOperationalPath, routePatternOf } from '../common/route-pattern';
import { AppConfig, LogLevel } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { BoundedStdout } from './bounded-stdout';
import { loggableUrl, REDACTED, REDACTED_PATHS, REQUEST_ID_HEADER, requestIdOf } from './log-redaction';

/** The id of the request being served, for every log line written while serving it. */
const requestIds = new AsyncLocalStorage<string>();

/**
 * The app's pino logger and the middleware that writes one line per request. configureApp
 * mounts the middleware before every other one, so that requests refused early (unknown Host,
 * body too large) are logged too; nestjs-pino's Logger writes through the same logger.
 *
 * Cheap on purpose (issue 11): no child logger per request (the logger's mixin adds the request
 * id from an AsyncLocalStorage), and the request line goes through a second pino logger on the
 * same destination without redaction, because it is built here from fields that hold no secret
 * (the URL is masked by loggableUrl).
 */
export class HttpLogger {
  constructor(
    readonly logger: Logger,
    readonly middleware: RequestHandler,
    private readonly output?: BoundedStdout,
  ) {}

  /** Waits a short while, never past `deadline` (epoch milliseconds), for log lines that a slow reader has not taken yet. */
  async flush(deadline: number): Promise<void> {
    await this.output?.flush(deadline);
  }
}

/** How a request ended: answered, answered with a server error, or cut off before its answer was written. */
type Outcome = 'completed' | 'failed' | 'aborted';

/** Probes and scrapes come every few seconds: their request lines are debug, not info. */
function levelOf(request: Request, response: Response, outcome: Outcome): Level {
  if (isOperationalPath(request.path)) return 'debug';
  if (outcome === 'failed') return 'error';
  return outcome === 'aborted' || response.statusCode >= 400 ? 'warn' : 'info';
}

/** Human-readable lines (pino-pretty, a development dependency) in development on a terminal, when it is installed. */
async function prettyDestination(config: AppConfig): Promise<DestinationStream | undefined> {
  if (config.nodeEnv !== 'development' || !process.stdout.isTTY) return undefined;
  try {
    const { default: pretty } = await import('pino-pretty');
    return pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l' });
  } catch {
    return undefined; // not installed (production install): JSON it is
  }
}

/** JSON lines with an ISO time and the level by name; secrets redacted wherever a log call puts them. */
export const loggerOptions = (level: LogLevel): LoggerOptions => ({
  ...requestLineOptions(level),
  redact: { paths: REDACTED_PATHS, censor: REDACTED },
  mixin: () => {
    const reqId = requestIds.getStore();
    return reqId === undefined ? {} : { reqId };
  },
});

const requestLineOptions = (level: LogLevel): LoggerOptions => ({
  level,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});

/**
 * JSON lines on stdout, through BoundedStdout, so that a request never waits on a write(2) nor on
 * a stalled reader; in the test suites, process.stdout itself, which they read through a spy.
 */
export async function createHttpLogger(config: AppConfig, metrics: Metrics): Promise<HttpLogger> {
  const pretty = await prettyDestination(config);
  const output =
    pretty || config.nodeEnv === 'test'
      ? undefined
      : new BoundedStdout({
          dropped: () => metrics.logLineDropped(),
          readerBack: (count) =>
            logger.warn({ droppedLines: count }, `${count} log lines were dropped while the log reader was stalled`),
        });
  const destination = pretty ?? output ?? process.stdout;
  const logger = pino(loggerOptions(config.logLevel), destination);
  const requestLines = pino(requestLineOptions(config.logLevel), destination);
  const middleware = (request: Request, response: Response, next: NextFunction) => {
    const reqId = requestIdOf(request);
    const started = Date.now();
    response.setHeader(REQUEST_ID_HEADER, reqId);
    // 'close' ends every response; one not finished by then was cut off (the client went away).
    response.once('close', () => {
      const outcome: Outcome = !response.writableFinished
        ? 'aborted'
        : response.statusCode >= 500
          ? 'failed'
          : 'completed';
      requestLines[levelOf(request, response, outcome)](
        {
          reqId,
          method: request.method,
          route: routePatternOf(request),
          url: loggableUrl(request.originalUrl ?? request.url),
          status: response.statusCode,
          responseTime: Date.now() - started,
          remoteAddress: request.ip,
        },
        `request ${outcome}`,
      );
    });
    requestIds.run(reqId, next);
  };
  return new HttpLogger(logger, middleware, output);
}
