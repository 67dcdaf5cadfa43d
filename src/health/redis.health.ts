import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { Cluster } from 'ioredis';
import { AppConfig } from '../config/app-config';
import { createRedisClient, RedisClient } from '../config/redis-client';
import { publicFailureMessage, withTimeout } from '../common/with-timeout';

export const REDIS_PING_TIMEOUT_MS = 1_000;

/**
 * Readiness of Redis (REDIS_URL): a PING over a connection of its own, answered within a second.
 * Of a Redis Cluster (REDIS_CLUSTER_NODES): CLUSTER INFO, whose `cluster_state` is reported
 * (`ok`, or `fail` while some slots have no master), with the masters that the client knows.
 *
 * An unreachable Redis is reported but does not fail readiness: the invitation rate limit falls
 * back to each instance's memory (docs/invitations.md), so the instance still serves every request.
 * Failing readiness would take every instance out of the load balancer at once over a degraded feature.
 */
@Injectable()
export class RedisHealthIndicator implements OnApplicationShutdown {
  private readonly redis?: RedisClient;

  constructor(
    config: AppConfig,
    private readonly indicator: HealthIndicatorService,
  ) {
    this.redis = createRedisClient(config, {
      // Connects on the first probe only; commands wait at most REDIS_PING_TIMEOUT_MS.
      lazyConnect: true,
      connectTimeout: REDIS_PING_TIMEOUT_MS,
      commandTimeout: REDIS_PING_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 500, 5_000),
      disconnectTimeout: 500,
    });
    // Failures are reported by the probe; the client keeps reconnecting in the background.
    this.redis?.on('error', () => undefined);
  }

  get configured(): boolean {
    return this.redis !== undefined;
  }

  async check(key: string) {
    const indicator = this.indicator.check(key);
    try {
      if (this.redis instanceof Cluster) return await withTimeout(this.clusterState(key), REDIS_PING_TIMEOUT_MS);
      await withTimeout(this.redis!.ping(), REDIS_PING_TIMEOUT_MS);
      return indicator.up();
    } catch (error) {
      return indicator.up({
        degraded: true,
        message: `${publicFailureMessage(error)}: rate-limit counters are per instance until Redis is back`,
      });
    }
  }

  /** The cluster's own view (CLUSTER INFO, from whichever node answers) and the masters the client knows. */
  private async clusterState(key: string) {
    const cluster = this.redis as Cluster;
    const info = String(await cluster.cluster('INFO'));
    const field = (name: string) => new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1];
    const details = {
      cluster: field('cluster_state') ?? 'unknown',
      slotsOk: Number(field('cluster_slots_ok') ?? 0),
      masters: cluster.nodes('master').length,
    };
    const indicator = this.indicator.check(key);
    if (details.cluster === 'ok') return indicator.up(details);
    return indicator.up({
      ...details,
      degraded: true,
      message: 'the Redis Cluster is not ok: rate-limit counters are per instance until it is',
    });
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}
