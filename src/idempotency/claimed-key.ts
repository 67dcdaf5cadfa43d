import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { bodyOf } from '../common/http-exception.filter';
import { IdempotencyClaim, IdempotencyStore } from './idempotency.store';

/**
 * The answers stored for replay: successes, and the refusals that the work itself decided (4xx).
 * Not stored, so that a retry runs again: a 429 (the work never ran) and failures (5xx).
 */
const isStored = (status: number) =>
  status < HttpStatus.BAD_REQUEST ||
  (status < HttpStatus.INTERNAL_SERVER_ERROR && status !== HttpStatus.TOO_MANY_REQUESTS);

const logger = new Logger('Idempotency');

/**
 * The key that IdempotencyGuard claimed for a request, which does the work: the handler's answer
 * is stored for replay when it ends, or the key released so that a retry runs the request again.
 */
export class ClaimedKey {
  private handlerStarted = false;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly claim: IdempotencyClaim,
  ) {}

  /**
   * Runs the handler and settles the key before its answer goes out, so that a retry after it
   * replays. Stored whatever became of the response: when the request timeout answered the client
   * first, the retry replays the late answer.
   */
  async runHandler(handler: () => unknown, successStatus: number): Promise<unknown> {
    this.handlerStarted = true;
    let body: unknown;
    try {
      body = await handler();
    } catch (error) {
      const refusal = error instanceof HttpException && isStored(error.getStatus()) ? error : undefined;
      await this.settle(refusal?.getStatus(), refusal && bodyOf(refusal));
      throw error;
    }
    await this.settle(successStatus, body);
    return body;
  }

  /** When the response ended before the handler ran (a later guard refused: the rate limit's 429), a retry may run. */
  releaseIfHandlerNeverStarted(): void {
    if (this.handlerStarted) return;
    this.store
      .release(this.claim)
      .catch((error) => logger.error(`Releasing an Idempotency-Key failed: ${messageOf(error)}`));
  }

  /** Stores the answer, or releases the key when there is none to store. A failure here is logged: the client gets the real answer. */
  private async settle(status: number | undefined, body: unknown): Promise<void> {
    try {
      if (status === undefined) await this.store.release(this.claim);
      else await this.store.complete(this.claim, status, body);
    } catch (error) {
      logger.error(`Storing the answer of an Idempotency-Key failed: ${messageOf(error)}`);
    }
  }
}

const claimedKeys = new WeakMap<object, ClaimedKey>();

/** The key claimed for this request; undefined for a request without Idempotency-Key. */
export const claimedKeyOf = (request: object): ClaimedKey | undefined => claimedKeys.get(request);

export const setClaimedKey = (request: object, key: ClaimedKey): void => void claimedKeys.set(request, key);
