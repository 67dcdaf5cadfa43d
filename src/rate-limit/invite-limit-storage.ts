import { ThrottlerStorage } from '@nestjs/throttler';
import type { RedisSeen } from '../config/redis-client';

/** What increment answers (the framework's type, which it does not export by name). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** A counter as it stands, read without counting. */
export interface InviteLimitState {
  /** Requests counted in the current window; 0 when no window is open. */
  totalHits: number;
  /** Milliseconds until the window's count starts again from 0; null when no window is open. */
  windowEndsInMs: number | null;
  /** Milliseconds until a caller over the limit may invite again; 0 when not refused. */
  blockEndsInMs: number;
}

/**
 * The invitation limit's storage: the framework's increment, and a read of the same counter that
 * counts nothing (GET /api/org/invite/quota). Both storages (Redis, and memory without it or while
 * it is unreachable) count the same way: a fixed window that opens at the first request and lasts
 * the window's length; a request past the limit is refused, and so is every one after it until
 * a whole window has passed since that refusal (the block).
 */
export interface InviteLimitStorage extends ThrottlerStorage {
  peek(key: string, throttlerName: string): Promise<InviteLimitState>;
  /**
   * Counts up to `wanted` at once, in one atomic step: as many as the window has left (opening one
   * if none is open), none while a block lasts. Never starts a block: what is not granted is not a
   * refused request. Answers the units granted and the counter after them.
   */
  reserve(
    key: string,
    ttl: number,
    limit: number,
    wanted: number,
    throttlerName: string,
  ): Promise<InviteLimitReservation>;
  /** Gives back units that reserve granted and nothing used; the count never goes below 0. */
  release(key: string, units: number, throttlerName: string): Promise<void>;
  /**
   * What the storage saw of Redis, for the start-up line: null without Redis; else whether it
   * answered, or why not (the counters are then in this instance's memory).
   */
  redisSeen(): RedisSeen | null;
  /** Forgets every counter and block (test mode's DELETE /api/test/rate-limits). */
  clear(): Promise<void>;
  /**
   * Moves every window and block `ms` closer to its end, as if that much time had passed (test
   * mode's clock): one with `ms` or less left ends now.
   */
  advance(ms: number): Promise<void>;
}

export interface InviteLimitReservation {
  granted: number;
  state: InviteLimitState;
}
