import { IdempotencyClaim } from './idempotency.store';

/** What IdempotencyGuard decided for a request that carries a key, for the guards and interceptor after it. */
export type IdempotentRequest =
  /** The key's first request: it does the work, and its answer is stored. */
  | { kind: 'claimed'; claim: IdempotencyClaim; handlerStarted: boolean }
  /** A retry: the stored answer is given again, and nothing else happens. */
  | { kind: 'replay'; status: number; body: unknown };

const decisions = new WeakMap<object, IdempotentRequest>();

export const idempotentRequest = (request: object): IdempotentRequest | undefined => decisions.get(request);

export const decideIdempotentRequest = (request: object, decision: IdempotentRequest): void =>
  void decisions.set(request, decision);

/** A replay spends no invitation quota: InviteThrottlerGuard skips it. */
export const isIdempotentReplay = (request: object): boolean => idempotentRequest(request)?.kind === 'replay';
