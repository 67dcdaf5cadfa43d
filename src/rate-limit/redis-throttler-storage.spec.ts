import { Logger } from '@nestjs/common';
import { MemoryThrottlerStorage } from './memory-throttler-storage';
import Redis from 'ioredis';
import { once } from 'node:events';
import { AddressInfo, createServer, Socket } from 'node:net';
import { parseConfig } from '../config/app-config';
import { throttlerOptions } from './rate-limit.module';
import { REDIS_WAIT_MS, RedisThrottlerStorage } from './redis-throttler-storage';
import { TEST_REDIS_URL, describeWithRedis, testRedisPrefix, deleteRedisKeys } from '../../test/support/test-redis';

class RecordingLogger extends Logger {
  errors: string[] = [];
  infos: string[] = [];
  override error(message: string) {
    this.errors.push(message);
  }
  override log(message: string) {
    this.infos.push(message);
  }
}

const WINDOW_MS = 60_000;

describe(RedisThrottlerStorage.name, () => {
  const storages: RedisThrottlerStorage[] = [];
  const open = async (url: string, prefix: string, logger = new RecordingLogger()) => {
    const storage = new RedisThrottlerStorage(url, prefix, logger);
    storages.push(storage);
    await storage.onModuleInit();
    return storage;
  };
  afterEach(() => storages.splice(0).forEach((storage) => storage.onApplicationShutdown()));

  describeWithRedis('with Redis (needs TEST_REDIS_URL)', () => {
    const prefix = testRedisPrefix();
    afterAll(async () => {
      await deleteRedisKeys(prefix);
    });

    it('shares one count between instances, under the key prefix, and blocks past the limit', async () => {
      const logger = new RecordingLogger();
      const [first, second] = [
        await open(TEST_REDIS_URL!, prefix, logger),
        await open(TEST_REDIS_URL!, prefix, logger),
      ];
      expect((await first.increment('user-a', WINDOW_MS, 2, WINDOW_MS, 'default')).totalHits).toBe(1);
      expect((await second.increment('user-a', WINDOW_MS, 2, WINDOW_MS, 'default')).totalHits).toBe(2);
      const third = await first.increment('user-a', WINDOW_MS, 2, WINDOW_MS, 'default');
      expect(third).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 60 });
      expect((await second.increment('user-b', WINDOW_MS, 2, WINDOW_MS, 'default')).isBlocked).toBe(false);

      const redis = new Redis(TEST_REDIS_URL!);
      expect((await redis.keys(`${prefix}*`)).sort()).toEqual([
        `${prefix}{user-a:default}:blocked`,
        `${prefix}{user-a:default}:hits`,
        `${prefix}{user-b:default}:hits`,
      ]);
      redis.disconnect();
      expect(logger.errors).toEqual([]);
    });

    it('reserve grants what the window has left across instances, atomically, on the counter spent; release gives back', async () => {
      const [first, second] = [await open(TEST_REDIS_URL!, prefix), await open(TEST_REDIS_URL!, prefix)];
      await first.increment('user-r', WINDOW_MS, 5, WINDOW_MS, 'default');
      const grants = await Promise.all(
        [1, 2, 3, 4].map((i) => (i % 2 ? first : second).reserve('user-r', WINDOW_MS, 5, 3, 'default')),
      );
      expect(grants.reduce((sum, { granted }) => sum + granted, 0)).toBe(4);
      const read = await second.peek('user-r', 'default');
      expect(read).toMatchObject({ totalHits: 5, blockEndsInMs: 0 });
      expect(read.windowEndsInMs).toBeGreaterThan(WINDOW_MS - 1_000);
      await first.release('user-r', 2, 'default');
      expect(await second.reserve('user-r', WINDOW_MS, 5, 3, 'default')).toMatchObject({
        granted: 2,
        state: { totalHits: 5, blockEndsInMs: 0 },
      });
      // Never a block: the next single request is refused by increment as before, not earlier.
      expect((await first.increment('user-r', WINDOW_MS, 5, WINDOW_MS, 'default')).isBlocked).toBe(true);
      expect(await first.reserve('user-r', WINDOW_MS, 5, 1, 'default')).toMatchObject({ granted: 0 });
    });

    it('reserve opens a window when none is open, and grants nothing when nothing is wanted', async () => {
      const storage = await open(TEST_REDIS_URL!, prefix);
      expect(await storage.reserve('user-n', WINDOW_MS, 5, 0, 'default')).toEqual({
        granted: 0,
        state: { totalHits: 0, windowEndsInMs: null, blockEndsInMs: 0 },
      });
      const { granted, state } = await storage.reserve('user-n', WINDOW_MS, 5, 7, 'default');
      expect([granted, state.totalHits]).toEqual([5, 5]);
      expect(state.windowEndsInMs).toBeGreaterThan(WINDOW_MS - 1_000);
    });

    it('advance on one instance moves the windows and blocks in Redis that both read: those with that much or less left end', async () => {
      const [first, second] = [await open(TEST_REDIS_URL!, prefix), await open(TEST_REDIS_URL!, prefix)];
      for (let i = 0; i < 3; i++) await first.increment('user-m', WINDOW_MS, 2, WINDOW_MS, 'default');
      await first.increment('user-o', WINDOW_MS * 2, 2, WINDOW_MS * 2, 'default');
      await first.advance(WINDOW_MS / 2);
      const moved = await second.peek('user-m', 'default');
      expect(moved).toMatchObject({ totalHits: 3 });
      expect(moved.windowEndsInMs).toBeLessThanOrEqual(WINDOW_MS / 2);
      expect(moved.blockEndsInMs).toBeGreaterThan(WINDOW_MS / 2 - 1_000);
      expect(moved.blockEndsInMs).toBeLessThanOrEqual(WINDOW_MS / 2);

      await second.advance(WINDOW_MS / 2);
      expect(await first.peek('user-m', 'default')).toEqual({ totalHits: 0, windowEndsInMs: null, blockEndsInMs: 0 });
      const other = await first.peek('user-o', 'default');
      expect(other).toMatchObject({ totalHits: 1, blockEndsInMs: 0 });
      expect(other.windowEndsInMs).toBeGreaterThan(WINDOW_MS - 1_000);
      expect(other.windowEndsInMs).toBeLessThanOrEqual(WINDOW_MS);
      expect(await second.increment('user-m', WINDOW_MS, 2, WINDOW_MS, 'default')).toMatchObject({
        totalHits: 1,
        isBlocked: false,
      });
    });

    it('peek reads the shared counter on any instance and counts nothing', async () => {
      const [first, second] = [await open(TEST_REDIS_URL!, prefix), await open(TEST_REDIS_URL!, prefix)];
      expect(await second.peek('user-p', 'default')).toEqual({ totalHits: 0, windowEndsInMs: null, blockEndsInMs: 0 });
      await first.increment('user-p', WINDOW_MS, 2, WINDOW_MS, 'default');
      const read = await second.peek('user-p', 'default');
      expect(read).toEqual({ totalHits: 1, windowEndsInMs: expect.any(Number), blockEndsInMs: 0 });
      expect(read.windowEndsInMs).toBeGreaterThan(WINDOW_MS - 1_000);
      expect(await second.peek('user-p', 'default')).toMatchObject({ totalHits: 1 });
      await first.increment('user-p', WINDOW_MS, 2, WINDOW_MS, 'default');
      await first.increment('user-p', WINDOW_MS, 2, WINDOW_MS, 'default');
      expect((await second.peek('user-p', 'default')).blockEndsInMs).toBeGreaterThan(WINDOW_MS - 1_000);
    });
  });

  it('peeks in memory when Redis refuses connections, at the counts made there', async () => {
    const storage = await open('redis://127.0.0.1:1', 'p:');
    await storage.increment('user-a', WINDOW_MS, 2, WINDOW_MS, 'default');
    expect(await storage.peek('user-a', 'default')).toMatchObject({ totalHits: 1, blockEndsInMs: 0 });
  });

  it('counts in memory at once when Redis refuses connections, and logs that once', async () => {
    const logger = new RecordingLogger();
    const storage = await open('redis://127.0.0.1:1', 'p:', logger);
    const started = Date.now();
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await storage.increment('user-a', WINDOW_MS, 2, WINDOW_MS, 'default'));
    expect(Date.now() - started).toBeLessThan(500);
    expect(results.map((r) => [r.totalHits, r.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(logger.errors).toHaveLength(1);
    expect(logger.errors[0]).toMatch(
      /^Redis unreachable \(.*ECONNREFUSED.*\): counting invitations in this instance's memory/,
    );
  });

  it('waits about a second at most on a Redis that accepts connections but never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const logger = new RecordingLogger();
      let started = Date.now();
      const storage = await open(`redis://127.0.0.1:${(silent.address() as AddressInfo).port}`, 'p:', logger);
      expect(Date.now() - started).toBeLessThan(REDIS_WAIT_MS + 500);
      started = Date.now();
      const record = await storage.increment('user-a', WINDOW_MS, 2, WINDOW_MS, 'default');
      expect(Date.now() - started).toBeLessThan(REDIS_WAIT_MS + 500);
      expect(record).toMatchObject({ totalHits: 1, isBlocked: false });
    } finally {
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  });
});

describe(throttlerOptions.name, () => {
  it('limits INVITE_RATE_LIMIT requests per INVITE_RATE_WINDOW_SECONDS, in memory without REDIS_URL', () => {
    const options = throttlerOptions(parseConfig({ INVITE_RATE_LIMIT: '3', INVITE_RATE_WINDOW_SECONDS: '60' }));
    expect(options).toMatchObject({
      throttlers: [{ limit: 3, ttl: 60_000 }],
      errorMessage: 'Too many invitations. Please try again later.',
    });
    expect(!Array.isArray(options) && options.storage).toBeInstanceOf(MemoryThrottlerStorage);
  });

  it('uses Redis, with memory as the fallback, when REDIS_URL is set', () => {
    const options = throttlerOptions(parseConfig({ REDIS_URL: 'redis://127.0.0.1:1' }));
    const storage = !Array.isArray(options) && options.storage;
    expect(storage).toBeInstanceOf(RedisThrottlerStorage);
    (storage as RedisThrottlerStorage).onApplicationShutdown();
  });
});
