import { setTimeout as delay } from 'node:timers/promises';

/** A dependency (database, identity store, Redis) did not answer in time. */
export class DependencyTimeoutError extends Error {
  constructor(ms: number) {
    super(`timeout of ${ms}ms exceeded`);
    this.name = 'DependencyTimeoutError';
  }
}

/** Rejects with DependencyTimeoutError when the promise has not settled within `ms`: nothing waits forever on a dependency. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  const abort = new AbortController();
  const timeout = delay(ms, undefined, { signal: abort.signal, ref: false }).then(() => {
    throw new DependencyTimeoutError(ms);
  });
  timeout.catch(() => undefined); // the abort below rejects it when the promise wins
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    abort.abort();
  }
}

/** What an unauthenticated answer may say about a dependency's failure: the timeout, or no more (messages can name hosts). */
export const publicFailureMessage = (error: unknown): string =>
  error instanceof DependencyTimeoutError ? error.message : 'unreachable';
