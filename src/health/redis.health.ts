import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { publicFailureMessage, withTimeout } from '../common/with-timeout';

export const REDIS_PING_TIMEOUT_MS = 1_000;

/**
 * Readiness of Redis (REDIS_URL): a PING over a connection of its own, answered within a second.
 *
 * An unreachable Redis is reported but does not fail readiness: the invitation rate limit falls
 * back to each instance's memory (CONTRACT), so the instance still serves every request. Failing
 * readiness would take every instance out of the load balancer at once over a degraded feature.
 */
@Injectable()
export class RedisHealthIndicator implements OnApplicationShutdown {
  private readonly redis?: Redis;

  constructor(
    config: AppConfig,
    private readonly indicator: HealthIndicatorService,
  ) {
    if (!config.redisUrl) return;
    this.redis = new Redis(config.redisUrl, {
      // Connects on the first probe only; commands wait at most REDIS_PING_TIMEOUT_MS.
      lazyConnect: true,
      connectTimeout: REDIS_PING_TIMEOUT_MS,
      commandTimeout: REDIS_PING_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 500, 5_000),
      disconnectTimeout: 500,
    });
    // Failures are reported by the probe; the client keeps reconnecting in the background.
    this.redis.on('error', () => undefined);
  }

  get configured(): boolean {
    return this.redis !== undefined;
  }

  async check(key: string) {
    const indicator = this.indicator.check(key);
    try {
      await withTimeout(this.redis!.ping(), REDIS_PING_TIMEOUT_MS);
      return indicator.up();
    } catch (error) {
      return indicator.up({
        degraded: true,
        message: `${publicFailureMessage(error)}: rate-limit counters are per instance until Redis is back`,
      });
    }
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}
