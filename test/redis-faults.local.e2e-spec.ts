import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { eventually } from './support/eventually';
import { newInviter, timedInvite } from './support/inviting';
import { INVITE_ERRORS } from './support/spec-bodies';
import { Outage, TcpProxy } from './support/tcp-proxy';
import { createTestApp, TestApp } from './support/test-app';
import { TEST_REDIS_URL, describeWithRedis, testRedisPrefix, deleteRedisKeys } from './support/test-redis';

/**
 * Issue 5, item 8: Redis goes away under a running instance (a TCP proxy that the test controls
 * sits between the app and Redis). Invitations go on, counted in the instance's memory, and
 * answer quickly; counting returns to Redis when it is back (CONTRACT, Decisions).
 */
describeWithRedis('Redis faults (needs TEST_REDIS_URL)', () => {
  const prefix = testRedisPrefix();
  let proxy: TcpProxy;
  let t: TestApp;
  let redis: Redis;
  let errors: jest.SpyInstance;
  let infos: jest.SpyInstance;

  /** The invitations counted in Redis under this suite's prefix (keys are hashes of the user id). */
  const countedInRedis = async () => {
    const keys = await redis.keys(`${prefix}*:hits`);
    const counts = keys.length ? await redis.mget(...keys) : [];
    return counts.reduce((sum, count) => sum + Number(count ?? 0), 0);
  };

  beforeAll(async () => {
    const proxied = await TcpProxy.forUrl(TEST_REDIS_URL!, 6379);
    proxy = proxied.proxy;
    t = await createTestApp({ env: { REDIS_URL: proxied.url, REDIS_KEY_PREFIX: prefix, INVITE_RATE_LIMIT: '1000' } });
    redis = new Redis(TEST_REDIS_URL!);
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    await deleteRedisKeys(prefix, redis);
    redis.disconnect();
  });
  beforeEach(() => {
    errors = jest.spyOn(Logger.prototype, 'error');
    infos = jest.spyOn(Logger.prototype, 'log');
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await proxy.reconnect();
  });

  it.each<[string, Outage]>([
    ['refused (Redis down)', 'refuse'],
    ['blackholed (a network partition)', 'blackhole'],
  ])(
    'with connections %s, invitations go on quickly on the in-memory counters, and counting returns to Redis',
    async (_, outage) => {
      const inviter = await newInviter(t);
      const before = await countedInRedis();
      expect((await timedInvite(t, inviter.cookie, 'up@example.com')).status).toBe(200);
      expect(await countedInRedis()).toBe(before + 1);

      await proxy.disconnect(outage);
      for (let i = 0; i < 4; i++) {
        const res = await timedInvite(t, inviter.cookie, `down-${i}@example.com`);
        expect(res.status).toBe(200);
        expect(res.ms).toBeLessThan(1_500);
      }
      expect(await countedInRedis()).toBe(before + 1);
      expect(errors.mock.calls.map((call) => String(call[0]))).toContainEqual(
        expect.stringMatching(/^Redis unreachable \(.*\): counting invitations in this instance's memory/),
      );

      await proxy.reconnect();
      await eventually(
        async () => {
          expect((await timedInvite(t, inviter.cookie, `back-${randomUUID()}@example.com`)).status).toBe(200);
          expect(await countedInRedis()).toBeGreaterThan(before + 1);
        },
        { timeoutMs: 10_000, intervalMs: 250 },
      );
      expect(infos.mock.calls.map((call) => String(call[0]))).toContain(
        'Redis reachable again: counting invitations in Redis',
      );
    },
  );

  it('the limit still holds on the in-memory counters while Redis is away', async () => {
    const limited = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${proxy.listeningPort}`, REDIS_KEY_PREFIX: prefix, INVITE_RATE_LIMIT: '2' },
    });
    try {
      const inviter = await newInviter(limited);
      await proxy.disconnect('blackhole');
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const res = await timedInvite(limited, inviter.cookie, `limited-${i}@example.com`);
        statuses.push(res.status);
        expect(res.ms).toBeLessThan(1_500);
        if (res.status === 429) expect(res.body).toEqual(INVITE_ERRORS.rateLimited);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
