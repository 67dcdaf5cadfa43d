import { OnApplicationShutdown } from '@nestjs/common';
import {
  InviteLimitReservation,
  InviteLimitState,
  InviteLimitStorage,
  ThrottlerStorageRecord,
} from './invite-limit-storage';

interface Window {
  hits: number;
  endsAt: number;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * Counters in this instance's memory: without REDIS_URL, and while Redis is unreachable. Counts
 * exactly as the Redis script of @nest-lab/throttler-storage-redis does, with its two keys (the
 * window's hits and the block), each expiring on its own; the framework's own in-memory storage
 * counts differently (a sliding log of hits) and has no read.
 */
export class MemoryThrottlerStorage implements InviteLimitStorage, OnApplicationShutdown {
  private readonly windows = new Map<string, Window>();
  /** When each block ends. */
  private readonly blocks = new Map<string, number>();
  private sweeper?: NodeJS.Timeout;

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    const id = `${key}:${throttlerName}`;
    const window = this.window(id, now) ?? { hits: 0, endsAt: now + ttl };
    window.hits += 1;
    this.windows.set(id, window);
    let blockEndsAt = this.blockEnd(id, now);
    if (!blockEndsAt && window.hits > limit) {
      blockEndsAt = now + blockDuration;
      this.blocks.set(id, blockEndsAt);
    }
    this.sweepLater();
    return {
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.endsAt - now) / 1_000),
      isBlocked: !!blockEndsAt,
      timeToBlockExpire: blockEndsAt ? Math.ceil((blockEndsAt - now) / 1_000) : 0,
    };
  }

  async peek(key: string, throttlerName: string): Promise<InviteLimitState> {
    const now = Date.now();
    const id = `${key}:${throttlerName}`;
    return stateOf(this.window(id, now), this.blockEnd(id, now), now);
  }

  async reserve(
    key: string,
    ttl: number,
    limit: number,
    wanted: number,
    throttlerName: string,
  ): Promise<InviteLimitReservation> {
    const now = Date.now();
    const id = `${key}:${throttlerName}`;
    let window = this.window(id, now);
    const blockEndsAt = this.blockEnd(id, now);
    const granted = blockEndsAt ? 0 : Math.min(wanted, Math.max(0, limit - (window?.hits ?? 0)));
    if (granted > 0) {
      window ??= { hits: 0, endsAt: now + ttl };
      window.hits += granted;
      this.windows.set(id, window);
      this.sweepLater();
    }
    return { granted, state: stateOf(window, blockEndsAt, now) };
  }

  async release(key: string, units: number, throttlerName: string): Promise<void> {
    const window = this.window(`${key}:${throttlerName}`, Date.now());
    if (window) window.hits = Math.max(0, window.hits - units);
  }

  /** No Redis: the counters are this instance's. */
  redisSeen(): null {
    return null;
  }

  async clear(): Promise<void> {
    this.windows.clear();
    this.blocks.clear();
  }

  async advance(ms: number): Promise<void> {
    const now = Date.now();
    for (const [id, window] of this.windows) {
      window.endsAt -= ms;
      this.window(id, now);
    }
    for (const [id, endsAt] of this.blocks) {
      this.blocks.set(id, endsAt - ms);
      this.blockEnd(id, now);
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.windows.clear();
    this.blocks.clear();
  }

  /** The open window, if any: a window's hits expire with it, as the script's hits key does. */
  private window(id: string, now: number): Window | undefined {
    const window = this.windows.get(id);
    if (window && window.endsAt <= now) this.windows.delete(id);
    return this.windows.get(id);
  }

  /** When the block ends, if one lasts; 0 otherwise. */
  private blockEnd(id: string, now: number): number {
    const endsAt = this.blocks.get(id) ?? 0;
    if (endsAt && endsAt <= now) this.blocks.delete(id);
    return endsAt > now ? endsAt : 0;
  }

  /** Drops expired counters once a minute, so that memory holds only the callers of the last window. */
  private sweepLater(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const id of this.windows.keys()) this.window(id, now);
      for (const id of this.blocks.keys()) this.blockEnd(id, now);
    }, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }
}

const stateOf = (window: Window | undefined, blockEndsAt: number, now: number): InviteLimitState => ({
  totalHits: window?.hits ?? 0,
  windowEndsInMs: window ? window.endsAt - now : null,
  blockEndsInMs: blockEndsAt ? blockEndsAt - now : 0,
});
