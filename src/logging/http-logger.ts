import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { DestinationStream, Level, Logger, LoggerOptions } from 'pino';
import { isOperationalPath, routePatternOf } from '../common/route-pattern';
import { AppConfig, LogLevel } from '../config/app-config';
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
  ) {}
}

/** How a request ended: answered, answered with a server error, or cut off before its answer was written. */
type Outcome = 'completed' | 'failed' | 'aborted';

/** Probes and scrapes come every few seconds: their request lines are debug, not info. */
function levelOf(request: Request, response: Response, outcome: Outcome): Level {
  if (isOperationalPath(request.path)) return 'debug';
  if (outcome === 'failed') return 'error';
  return outcome === 'aborted' || response.statusCode >= 400 ? 'warn' : 'info';
}

/**
 * JSON lines on stdout; human-readable (pino-pretty, a development dependency) only in
 * development on a terminal, falling back to JSON when it is not installed.
 */
async function destinationFor(config: AppConfig): Promise<DestinationStream> {
  if (config.nodeEnv === 'development' && process.stdout.isTTY) {
    try {
      const { default: pretty } = await import('pino-pretty');
      return pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l' });
    } catch {
      // Not installed (production install): JSON it is.
    }
  }
  // In production, lines are written asynchronously (sonic-boom), so that a request never waits
  // on a write(2); pino flushes what is buffered when the process exits, so no line is lost.
  // Elsewhere, process.stdout itself: the test suites read the lines through a spy on it.
  if (config.nodeEnv === 'production') return pino.destination({ dest: 1, sync: false });
  return process.stdout;
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

export async function createHttpLogger(config: AppConfig): Promise<HttpLogger> {
  const destination = await destinationFor(config);
  const logger = pino(loggerOptions(config.logLevel), destination);
  const requestLines = pino(requestLineOptions(config.logLevel), destination);
  const middleware = (request: Request, response: Response, next: NextFunction) => {
    const reqId = requestIdOf(request);
    const started = Date.now();
    response.setHeader(REQUEST_ID_HEADER, reqId);
    // 'close' ends every response; one not finished by then was cut off (the client went away).
    response.once('close', () => {
      const outcome: Outcome = !response.writableFinished ? 'aborted' : response.statusCode >= 500 ? 'failed' : 'completed';
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
  return new HttpLogger(logger, middleware);
}
