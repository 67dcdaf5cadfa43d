import { setTimeout as delay } from 'node:timers/promises';

export class ProbeTimeoutError extends Error {
  constructor(ms: number) {
    super(`timeout of ${ms}ms exceeded`);
    this.name = 'ProbeTimeoutError';
  }
}

/** Rejects with ProbeTimeoutError when the promise has not settled within `ms`: nothing waits forever on a dependency. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  const abort = new AbortController();
  const timeout = delay(ms, undefined, { signal: abort.signal, ref: false }).then(() => {
    throw new ProbeTimeoutError(ms);
  });
  timeout.catch(() => undefined); // the abort below rejects it when the promise wins
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    abort.abort();
  }
}

/** What a probe answer may say about a failure: the timeout, or no more (messages can name hosts). */
export const probeFailure = (error: unknown): string => (error instanceof ProbeTimeoutError ? error.message : 'unreachable');
