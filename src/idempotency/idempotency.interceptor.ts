import {
  CallHandler,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
  Logger,
  NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable, of, throwError } from 'rxjs';
import { messageOf } from '../common/api-error';
import { bodyOf } from '../common/http-exception.filter';
import { idempotentRequest } from './idempotent-request';
import { IDEMPOTENT_REPLAYED_HEADER } from './idempotency.messages';
import { IdempotencyClaim, IdempotencyStore } from './idempotency.store';

/**
 * The answers stored for replay: successes, and the refusals that the work itself decided (4xx).
 * Not stored, so that a retry runs again: a 429 (the work never ran; IdempotencyGuard releases
 * the key) and failures (5xx: the key is released here).
 */
const isStored = (status: number) =>
  status < HttpStatus.BAD_REQUEST ||
  (status < HttpStatus.INTERNAL_SERVER_ERROR && status !== HttpStatus.TOO_MANY_REQUESTS);

/**
 * Issue 12 item 8, with IdempotencyGuard: gives a replay its stored answer (and
 * `Idempotent-Replayed: true`) without running the handler; for the key's first request, stores
 * the handler's answer when the work ends, or releases the key when it failed.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const decision = idempotentRequest(http.getRequest<Request>());
    if (!decision) return next.handle();
    if (decision.kind === 'replay') {
      http.getResponse<Response>().setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
      // A success goes out with the route's own status, which is the stored one (same method and path).
      return decision.status < HttpStatus.BAD_REQUEST
        ? of(decision.body)
        : throwError(() => new HttpException(decision.body as object, decision.status));
    }
    decision.handlerStarted = true;
    const status = successStatus(context);
    // A promise of its own, not part of the response's pipeline: when the request timeout answers
    // the client first, the work still stores its answer on finishing, for the retry to replay.
    const outcome = lastValueFrom(next.handle(), { defaultValue: undefined }).then(
      async (body) => {
        await this.settle(decision.claim, status, body);
        return body;
      },
      async (error: unknown) => {
        const refusal = error instanceof HttpException && isStored(error.getStatus()) ? error : undefined;
        await this.settle(decision.claim, refusal?.getStatus(), refusal && bodyOf(refusal));
        throw error;
      },
    );
    return from(outcome);
  }

  /** Stores the answer, or releases the key when there is none to store. A failure here is logged: the client gets the real answer. */
  private async settle(claim: IdempotencyClaim, status: number | undefined, body: unknown): Promise<void> {
    try {
      if (status === undefined) await this.store.release(claim);
      else await this.store.complete(claim, status, body);
    } catch (error) {
      this.logger.error(`Storing the answer of an Idempotency-Key failed: ${messageOf(error)}`);
    }
  }
}

/** The status a success of this route answers with: its @HttpCode, else Nest's default. */
function successStatus(context: ExecutionContext): number {
  const declared = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined;
  return (
    declared ?? (context.switchToHttp().getRequest<Request>().method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK)
  );
}
