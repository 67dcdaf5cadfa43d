import { HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export const REQUEST_TIMED_OUT = 'Request timed out';

/**
 * Answers 503 `{"error":"Request timed out"}` when a request has not been answered within
 * REQUEST_TIMEOUT_MS of reaching the routes, so that a stuck dependency (a database connection
 * whose packets are silently dropped) never hangs a client. One plain timer per request, cleared
 * when the response ends: Node keeps timers of one duration in one list, so arming and clearing
 * it is cheap, unlike an rxjs timeout on every handler. The handler's late answer is dropped
 * (see HttpExceptionFilter).
 */
export function requestTimeout(timeoutMs: number): RequestHandler {
  return (_request: Request, response: Response, next: NextFunction) => {
    const timer = setTimeout(() => {
      if (response.headersSent) return;
      response.locals.timedOut = true;
      response.status(HttpStatus.SERVICE_UNAVAILABLE).json({ error: REQUEST_TIMED_OUT });
    }, timeoutMs);
    // 'close' ends every response, answered or cut off.
    response.once('close', () => clearTimeout(timer));
    next();
  };
}

/**
 * How long a guard waits for the identity store before refusing: within the request's deadline,
 * so that the guard's own refusal (spec section 5's 403, or the route's 500) answers a stuck
 * store, not the 503 above.
 */
export const callerCheckTimeoutMs = (requestTimeoutMs: number): number => Math.floor(requestTimeoutMs * 0.8);
