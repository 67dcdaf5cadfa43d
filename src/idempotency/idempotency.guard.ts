import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { setTimeout as delay } from 'node:timers/promises';
import { Caller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { failureResponse } from '../common/failure-response';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { IdempotencyKeyEntity } from '../database/entities';
import { ClaimedKey, setClaimedKey } from './claimed-key';
import { IDEMPOTENCY_ERRORS, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency.messages';
import { IdempotencyClaim, IdempotencyStore } from './idempotency.store';
import { requestFingerprint } from './request-fingerprint';

/** How long a stored answer is replayed (and its key kept). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1_000;
/** How long a retry waits for the first request with its key to finish before answering 409. */
export const IN_PROGRESS_WAIT_MS = 5_000;
const POLL_EVERY_MS = 50;

/** 1 to 255 printable ASCII characters, space included (Node has already trimmed the ends). */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** What a request with a key gets: the key, to do the work; or the answer stored for the key. */
type Decision = { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; status: number; body: unknown };

/**
 * Idempotency-Key, on a route that lists it after its authorisation guards and before the rate
 * limit. A request without Idempotency-Key passes untouched. With one, in this order:
 * - a key that is not 1–255 printable ASCII characters, or sent twice: 400;
 * - the key is claimed with an INSERT (caller, key): the first request does the work, and
 *   @Idempotent() stores its answer (ClaimedKey);
 * - a key taken by another request: 422 if that request differs (method, path, canonical body);
 *   its stored answer, replayed, if it finished; if it is still working, wait up to
 *   IN_PROGRESS_WAIT_MS for its answer, then 409. A key older than 24 hours is claimed afresh.
 * A replay is answered from here, as an exception that the exception filter sends as it is (a
 * success too): nothing after this guard runs, neither the rate limit nor the handler.
 * A claim whose work never starts (a guard after this one refused: the rate limit's 429) is
 * released when the response ends, so that a retry may run.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const key = keyOf(request);
    if (key === undefined) return true;
    const callerId = (request.user as Caller).id;
    const requestHash = requestFingerprint(request.method, request.path, request.body);
    // A failing database answers the route's own 500, as its handler's failure would.
    const decision = await this.decide(callerId, key, requestHash).catch((error: unknown) => {
      throw failureResponse(context.getHandler(), error);
    });
    const response = context.switchToHttp().getResponse<Response>();
    if (decision.kind === 'replay') {
      response.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
      throw new HttpException(decision.body as object, decision.status);
    }
    const claimed = new ClaimedKey(this.store, decision.claim);
    setClaimedKey(request, claimed);
    response.once('close', () => claimed.releaseIfHandlerNeverStarted());
    return true;
  }

  private async decide(callerId: string, key: string, requestHash: string): Promise<Decision> {
    const waitUntil = Date.now() + IN_PROGRESS_WAIT_MS;
    for (;;) {
      const now = this.clock.now();
      const claim: IdempotencyClaim = { callerId, key, claimId: this.ids.uuid() };
      const claimedUntil = this.leaseFrom(now);
      if (
        await this.store.claim({
          ...claim,
          requestHash,
          claimedUntil,
          responseStatus: null,
          responseBody: null,
          createdAt: now,
        })
      ) {
        return { kind: 'claimed', claim };
      }
      const taken = await this.store.find(callerId, key);
      if (!taken) continue; // released since: claim again
      const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
      if (taken.createdAt < cutoff) {
        await this.store.deleteIfCreatedBefore(callerId, key, cutoff); // expired, not yet purged
        continue;
      }
      if (taken.requestHash !== requestHash)
        throw new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, IDEMPOTENCY_ERRORS.reusedKey);
      if (taken.responseStatus !== null)
        return { kind: 'replay', status: taken.responseStatus, body: JSON.parse(taken.responseBody ?? 'null') };
      if (lapsed(taken, now) && (await this.store.takeOver(taken, claim.claimId, claimedUntil))) {
        return { kind: 'claimed', claim };
      }
      if (Date.now() >= waitUntil) throw new ApiError(HttpStatus.CONFLICT, IDEMPOTENCY_ERRORS.inProgress);
      await delay(POLL_EVERY_MS);
    }
  }

  /**
   * A claim lapses when its request can no longer be working: the request timeout answers the
   * client after REQUEST_TIMEOUT_MS, and the work still gets as long again to store its answer.
   */
  private leaseFrom(now: Date): Date {
    return new Date(now.getTime() + 2 * this.config.requestTimeoutMs);
  }
}

/** The request's key; undefined without the header; 400 when it is malformed or sent more than once. */
function keyOf(request: Request): string | undefined {
  const name = IDEMPOTENCY_KEY_HEADER.toLowerCase();
  // `headers` first: Node builds `headersDistinct`, every header as a list, when it is first read.
  if (request.headers[name] === undefined) return undefined;
  const values = request.headersDistinct[name]!;
  if (values.length !== 1 || !VALID_KEY.test(values[0]))
    throw new ApiError(HttpStatus.BAD_REQUEST, IDEMPOTENCY_ERRORS.invalidKey);
  return values[0];
}

const lapsed = (row: IdempotencyKeyEntity, now: Date): boolean => !row.claimedUntil || row.claimedUntil < now;
