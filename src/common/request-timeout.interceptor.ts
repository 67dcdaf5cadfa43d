import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, Observable, throwError, timeout, TimeoutError } from 'rxjs';
import { ApiError } from './api-error';

export const REQUEST_TIMED_OUT = 'Request timed out';

/**
 * Answers 503 when a handler has not answered within REQUEST_TIMEOUT_MS, so that a stuck
 * dependency (a database connection whose packets are silently dropped) never hangs a client.
 */
@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  constructor(private readonly timeoutMs: number) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      timeout(this.timeoutMs),
      catchError((error: unknown) =>
        throwError(() =>
          error instanceof TimeoutError ? new ApiError(HttpStatus.SERVICE_UNAVAILABLE, REQUEST_TIMED_OUT) : error,
        ),
      ),
    );
  }
}
