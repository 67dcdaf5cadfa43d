import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isOperationalPath } from './route-pattern';

/** Errors raised below Nest (Express middleware) that carry a 4xx status of their own. */
function clientErrorStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/** Turns Nest's own `{statusCode, message, error}` bodies into `{error: message}`. */
export function bodyOf(exception: HttpException): object {
  const response = exception.getResponse();
  if (typeof response === 'string') return { error: response };
  if (!('statusCode' in response)) return response; // already a spec body
  const { message } = response as { message?: unknown };
  const text = Array.isArray(message) ? message.join('; ') : message;
  return { error: typeof text === 'string' && text ? text : exception.message };
}

/**
 * The one place that shapes error bodies. Spec bodies (`{error}`, `{valid:false,…}`,
 * `{success:false,…}`) pass through unchanged; nothing else ever shows a stack trace.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    // The request was answered 503 when its deadline passed (requestTimeout): its late outcome has nowhere to go.
    if (response.headersSent && response.locals?.timedOut) return;
    let status: number;
    let body: object;
    if (exception instanceof HttpException) {
      status = exception.getStatus();
      body = bodyOf(exception);
      // A probe's 503 (draining, migrations pending) is no fault of a request: the health module logs its cause.
      const probe = isOperationalPath(host.switchToHttp().getRequest<Request>().path);
      if (status >= 500 && !probe)
        this.logger.error(`${status} response`, (exception.cause as Error | undefined)?.stack);
    } else if (clientErrorStatus(exception)) {
      status = clientErrorStatus(exception)!;
      body = { error: 'Bad request' };
    } else {
      status = HttpStatus.INTERNAL_SERVER_ERROR;
      body = { error: 'Internal server error' };
      this.logger.error('Unhandled error', exception instanceof Error ? exception.stack : String(exception));
    }
    if (response.headersSent) return;
    response.status(status).json(body);
  }
}
