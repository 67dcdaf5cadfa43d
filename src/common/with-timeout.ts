/** A dependency (database, identity store, Redis) did not answer in time. */
export class DependencyTimeoutError extends Error {
  constructor(ms: number) {
    super(`timeout of ${ms}ms exceeded`);
    this.name = 'DependencyTimeoutError';
  }
}

/** Rejects with DependencyTimeoutError when the promise has not settled within `ms`: nothing waits forever on a dependency. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DependencyTimeoutError(ms)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What an unauthenticated answer may say about a dependency's failure: the timeout, or no more (messages can name hosts). */
export const publicFailureMessage = (error: unknown): string =>
  error instanceof DependencyTimeoutError ? error.message : 'unreachable';
