import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';

/** The Redis that suites needing one use; unset on a bare machine (jest.config.js prints SKIPPED). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

/** `describe` when TEST_REDIS_URL is set, a visible skip otherwise (refused under CI=true). */
export const describeWithRedis = TEST_REDIS_URL ? describe : describe.skip;

/** A key prefix of its own, so that suites and runs sharing one Redis never see each other's counters. */
export const testRedisPrefix = (): string => `tenant-service-test:${randomUUID()}:`;

/** Deletes every key under the prefix, through the client given or a short-lived one. */
export async function deleteRedisKeys(prefix: string, client?: Redis): Promise<void> {
  const redis = client ?? new Redis(TEST_REDIS_URL!);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  if (!client) redis.disconnect();
}
