import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Cluster } from 'ioredis';
import { setTimeout as delay } from 'node:timers/promises';
import { withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';
import { createRedisClient, mastersOf, RedisClient, RedisSeen } from '../config/redis-client';
import {
  InviteLimitReservation,
  InviteLimitState,
  InviteLimitStorage,
  ThrottlerStorageRecord,
} from './invite-limit-storage';
import { MemoryThrottlerStorage } from './memory-throttler-storage';

/**
 * reserve, on the library script's two keys: grants what the open window has left (none while
 * blocked), opening a window of ARGV[1] ms when none is open. Answers [granted, hits, their time to
 * live, the block's time to live] (times in ms; negative when there is no such key).
 */
const RESERVE_SCRIPT = `
local hitKey, blockKey = KEYS[1], KEYS[2]
local ttl, limit, wanted = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local blockTtl = redis.call('PTTL', blockKey)
local hitsTtl = redis.call('PTTL', hitKey)
local hits = 0
if hitsTtl > 0 then hits = tonumber(redis.call('GET', hitKey)) end
local granted = 0
if blockTtl <= 0 then granted = math.min(wanted, math.max(0, limit - hits)) end
if granted > 0 then
  if hitsTtl > 0 then
    hits = redis.call('INCRBY', hitKey, granted)
  else
    redis.call('SET', hitKey, granted, 'PX', ttl)
    hits, hitsTtl = granted, ttl
  end
end
return { granted, hits, hitsTtl, blockTtl }
`;

/** release: takes units back from the open window's hits, never below 0. */
const RELEASE_SCRIPT = `
local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
local units = math.min(hits, tonumber(ARGV[1]))
if units > 0 then redis.call('DECRBY', KEYS[1], units) end
return units
`;

/**
 * advance: each key (a window's hits or a block) with ARGV[1] ms or less to live is deleted, the
 * others live that much less; a key that is gone already is left alone.
 */
const ADVANCE_SCRIPT = `
local ms = tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  local ttl = redis.call('PTTL', key)
  if ttl > ms then redis.call('PEXPIRE', key, ttl - ms) elseif ttl >= 0 then redis.call('DEL', key) end
end
`;

/** How long a request may wait on Redis before this instance counts in its own memory (spec section 8's note). */
export const REDIS_WAIT_MS = 1_000;

/**
 * Counters in Redis, shared by every instance. While Redis is unreachable, each instance counts
 * in its own memory and says so in the log, rather than failing requests or letting all through.
 * Commands fail at once while disconnected (no offline queue) and time out after REDIS_WAIT_MS;
 * the client keeps reconnecting in the background.
 */
export class RedisThrottlerStorage implements InviteLimitStorage, OnModuleInit, OnApplicationShutdown {
  private readonly redis: RedisClient;
  private readonly shared: ThrottlerStorageRedisService;
  private readonly memory = new MemoryThrottlerStorage();
  private usingMemory = false;
  /** The error of the outage under way, if any. */
  private outage: string | null = null;

  /**
   * `redis`: one Redis's URL, or the settings (REDIS_URL or REDIS_CLUSTER_NODES). Every script's
   * keys share one hash tag (`{key:name}`), so that on a cluster they lie in one slot.
   */
  constructor(
    redis: string | Pick<AppConfig, 'redisUrl' | 'redisClusterNodes'>,
    private readonly keyPrefix: string,
    private readonly logger = new Logger('RateLimit'),
  ) {
    this.redis = createRedisClient(typeof redis === 'string' ? { redisUrl: redis } : redis, {
      keyPrefix,
      lazyConnect: true,
      connectTimeout: REDIS_WAIT_MS,
      commandTimeout: REDIS_WAIT_MS,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(attempt * 500, 5_000),
      // ioredis keeps a timer for this long after disconnect() when the socket never opened.
      disconnectTimeout: 500,
    })!;
    this.redis.on('error', (error: Error) => this.fallBack(error));
    this.redis.on('ready', () => this.recover());
    this.shared =
      this.redis instanceof Cluster
        ? new ThrottlerStorageRedisService(this.redis)
        : new ThrottlerStorageRedisService(this.redis);
  }

  /** Connects before the first request, waiting REDIS_WAIT_MS at most: a lost Redis must not stop start-up. */
  async onModuleInit(): Promise<void> {
    const connecting = this.redis.connect().catch((error: Error) => this.fallBack(error));
    await Promise.race([connecting, delay(REDIS_WAIT_MS, undefined, { ref: false })]);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      const record = await this.within(this.shared.increment(key, ttl, limit, blockDuration, throttlerName));
      this.recover(); // after a timed-out command the connection may never have dropped
      return record;
    } catch (error) {
      this.fallBack(error as Error);
      return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  /**
   * Reads the two keys that the library's script writes (`{key:name}:hits`, `{key:name}:blocked`,
   * under the client's prefix) in one MULTI, and changes neither.
   */
  async peek(key: string, throttlerName: string): Promise<InviteLimitState> {
    try {
      const [hits, hitsTtl, blockTtl] = await this.within(this.readCounter(`{${key}:${throttlerName}}`));
      this.recover();
      return stateOf(hits, hitsTtl, blockTtl);
    } catch (error) {
      this.fallBack(error as Error);
      return this.memory.peek(key, throttlerName);
    }
  }

  async reserve(
    key: string,
    ttl: number,
    limit: number,
    wanted: number,
    throttlerName: string,
  ): Promise<InviteLimitReservation> {
    const id = `{${key}:${throttlerName}}`;
    try {
      const reply = (await this.within(
        this.redis.eval(RESERVE_SCRIPT, 2, `${id}:hits`, `${id}:blocked`, ttl, limit, wanted),
      )) as number[];
      this.recover();
      const [granted, hits, hitsTtl, blockTtl] = reply.map(Number);
      return { granted, state: stateOf(hits, hitsTtl, blockTtl) };
    } catch (error) {
      this.fallBack(error as Error);
      return this.memory.reserve(key, ttl, limit, wanted, throttlerName);
    }
  }

  async release(key: string, units: number, throttlerName: string): Promise<void> {
    try {
      await this.within(this.redis.eval(RELEASE_SCRIPT, 1, `{${key}:${throttlerName}}:hits`, units));
      this.recover();
    } catch (error) {
      this.fallBack(error as Error);
      await this.memory.release(key, units, throttlerName);
    }
  }

  /** Deletes the counters' keys (`{key:name}:hits` and `:blocked`), and the fallback memory's counters. */
  async clear(): Promise<void> {
    await this.memory.clear();
    await this.eachCounterKeys((keys) => this.redis.del(...keys));
  }

  /**
   * Shortens every counter key's time to live in Redis, a batch of keys per script, so that every
   * instance finds the windows moved at once; and this instance's fallback memory's counters.
   */
  async advance(ms: number): Promise<void> {
    await this.memory.advance(ms);
    await this.eachCounterKeys((keys) => this.redis.eval(ADVANCE_SCRIPT, keys.length, ...keys, ms));
  }

  /** Answering (its connection ready and no outage under way), or why not. */
  redisSeen(): RedisSeen {
    if (this.outage !== null) return { reachable: false, reason: this.outage };
    if (this.redis.status !== 'ready') return { reachable: false, reason: `still connecting (${this.redis.status})` };
    return { reachable: true };
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
    this.memory.onApplicationShutdown();
  }

  /**
   * The counters' keys in batches of SCAN, as the client names them (without its prefix): SCAN's
   * pattern is not prefixed by the client, the keys of other commands are. On a cluster, SCAN
   * sees one node at a time: every master is scanned, and each batch is cut into the keys of one
   * counter (one hash tag, one slot), since a script or a DEL may not span slots.
   */
  private async eachCounterKeys(apply: (keys: string[]) => Promise<unknown>): Promise<void> {
    const clustered = this.redis instanceof Cluster;
    for (const node of mastersOf(this.redis)) {
      const batches = node.scanStream({ match: `${escapeGlob(this.keyPrefix)}{*}:*`, count: 500 });
      for await (const batch of batches as AsyncIterable<string[]>) {
        const keys = (batch as string[]).map((key) => key.slice(this.keyPrefix.length));
        if (keys.length === 0) continue;
        if (!clustered) await apply(keys);
        else await Promise.all([...groupByHashTag(keys).values()].map(apply));
      }
    }
  }

  /** A command that answers within REDIS_WAIT_MS or counts as failed (a cluster retries CLUSTERDOWN itself). */
  private within<T>(command: Promise<T>): Promise<T> {
    return withTimeout(command, REDIS_WAIT_MS);
  }

  /** [hits, their time to live, the block's time to live], in milliseconds (negative: no such key). */
  private async readCounter(id: string): Promise<[number, number, number]> {
    const replies = await this.redis.multi().get(`${id}:hits`).pttl(`${id}:hits`).pttl(`${id}:blocked`).exec();
    const failed = replies?.find(([error]) => error);
    if (!replies || failed) throw failed?.[0] ?? new Error('Redis discarded the transaction');
    const [hits, hitsTtl, blockTtl] = replies.map(([, value]) => Number(value ?? 0));
    return [hits, hitsTtl, blockTtl];
  }

  /** Logs once per outage, not once per request or reconnection attempt. */
  private fallBack(error: Error): void {
    if (this.usingMemory) return;
    this.usingMemory = true;
    this.outage = error.message;
    this.logger.error(
      `Redis unreachable (${error.message}): counting invitations in this instance's memory until it is back`,
    );
  }

  private recover(): void {
    if (!this.usingMemory) return;
    this.usingMemory = false;
    this.outage = null;
    this.logger.log('Redis reachable again: counting invitations in Redis');
  }
}

/** Keys by their hash tag (`{…}`, which decides the slot): each group may go in one script. */
function groupByHashTag(keys: string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const key of keys) {
    const tag = /\{[^}]*\}/.exec(key)?.[0] ?? key;
    groups.set(tag, [...(groups.get(tag) ?? []), key]);
  }
  return groups;
}

/** A literal for a Redis glob pattern. */
const escapeGlob = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');

/** The counter from its keys: hits and the times to live of the hits and the block, in ms. */
function stateOf(hits: number, hitsTtl: number, blockTtl: number): InviteLimitState {
  const windowOpen = hits > 0 && hitsTtl > 0;
  return {
    totalHits: windowOpen ? hits : 0,
    windowEndsInMs: windowOpen ? hitsTtl : null,
    blockEndsInMs: Math.max(0, blockTtl),
  };
}
