import { setTimeout as delay } from 'node:timers/promises';

/**
 * MySQL's answers to a transaction that lost to another: a deadlock (1213: on Galera also a
 * transaction that failed certification at commit because another node wrote the same row first),
 * and a lock wait that timed out (1205). The server has undone the transaction (1213) or its last
 * statement (1205; the caller rolls back the rest): run again from its start, it gives the answer
 * that a single server would have given, for example "already accepted" to the loser of a race.
 */
export const WRITE_CONFLICT_ERRNOS = new Set([1213, 1205]);

/** Attempts of one transaction in all: the first and at most four retries. */
export const WRITE_CONFLICT_ATTEMPTS = 5;

export const isWriteConflict = (error: unknown): boolean =>
  WRITE_CONFLICT_ERRNOS.has((error as { errno?: number } | undefined)?.errno ?? 0);

/**
 * Runs `transaction` again from its start while it fails with a write conflict, at most
 * WRITE_CONFLICT_ATTEMPTS times in all, after a short random wait that grows with each attempt
 * (so that two losers do not collide again in step). Only for work that may run again whole: a
 * transaction that the server undid, whose values (ids, times) were chosen before it.
 */
export async function retryingWriteConflicts<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isWriteConflict(error) || attempt >= WRITE_CONFLICT_ATTEMPTS) throw error;
      await delay(Math.random() * 10 * 2 ** attempt);
    }
  }
}
