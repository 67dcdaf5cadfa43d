import type { Request, RequestHandler, Response } from 'express';
import pino, { DestinationStream, Logger, LoggerOptions } from 'pino';
import { pinoHttp } from 'pino-http';
import { isOperationalPath, routePatternOf } from '../common/route-pattern';
import { AppConfig, LogLevel } from '../config/app-config';
import { loggableUrl, REDACTED, REDACTED_PATHS, REQUEST_ID_HEADER, requestIdOf } from './log-redaction';

/**
 * The app's one pino logger and the pino-http middleware that writes one line per request.
 * configureApp mounts the middleware before every other one, so that requests refused early
 * (unknown Host, body too large) are logged too; nestjs-pino's Logger writes through the same logger.
 */
export class HttpLogger {
  constructor(
    readonly logger: Logger,
    readonly middleware: RequestHandler,
  ) {}
}

/** The request line: request id (bound by quietReqLogger), method, route pattern, masked URL, status, latency. */
function requestLine(request: Request, response: Response, responseTime: number) {
  return {
    method: request.method,
    route: routePatternOf(request),
    url: loggableUrl(request.originalUrl ?? request.url),
    status: response.statusCode,
    responseTime,
    remoteAddress: request.ip,
  };
}

/** Probes and scrapes come every few seconds: their request lines are debug, not info. */
function levelOf(request: Request, response: Response, error?: Error) {
  if (isOperationalPath(request.path)) return 'debug';
  if (error || response.statusCode >= 500) return 'error';
  return response.statusCode >= 400 ? 'warn' : 'info';
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
  level,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  redact: { paths: REDACTED_PATHS, censor: REDACTED },
});

export async function createHttpLogger(config: AppConfig): Promise<HttpLogger> {
  const logger = pino(loggerOptions(config.logLevel), await destinationFor(config));
  const middleware = pinoHttp<Request, Response>({
    logger,
    genReqId: (request, response) => {
      const id = requestIdOf(request);
      response.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // Log calls made while serving a request carry its reqId only; the request line says the rest.
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel: levelOf,
    customSuccessObject: (request, response, value) => requestLine(request, response, value.responseTime),
    customErrorMessage: () => 'request failed',
    // The 5xx itself was logged with its cause where it happened (HttpExceptionFilter).
    customErrorObject: (request, response, _error, value) => requestLine(request, response, value.responseTime),
  });
  return new HttpLogger(logger, middleware as RequestHandler);
}
