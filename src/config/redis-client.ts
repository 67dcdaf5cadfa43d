import Redis, { Cluster, RedisOptions } from 'ioredis';
import { AppConfig } from './app-config';

/** One Redis (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES): the commands the service uses are the same. */
export type RedisClient = Redis | Cluster;

type RedisSettings = Pick<AppConfig, 'redisUrl' | 'redisClusterNodes'>;

/** Whether a Redis is configured, single or clustered. */
export const redisConfigured = (config: RedisSettings): boolean =>
  config.redisUrl !== undefined || config.redisClusterNodes !== undefined;

/**
 * The one place that turns the Redis settings into a client: the rate limit, test mode's shared
 * clock and the health probe each make theirs here, with their own options. Against a cluster
 * the same options apply to each node's connection; the client follows MOVED and ASK and refreshes
 * its map of slots itself. Undefined when no Redis is configured.
 */
export function createRedisClient(config: RedisSettings, options: RedisOptions = {}): RedisClient | undefined {
  if (config.redisClusterNodes) {
    const { keyPrefix, lazyConnect, enableOfflineQueue, retryStrategy, ...perNode } = options;
    return new Cluster(config.redisClusterNodes, {
      keyPrefix,
      lazyConnect,
      enableOfflineQueue,
      clusterRetryStrategy: retryStrategy ?? undefined,
      // A master that stopped: its slots answer CLUSTERDOWN until the cluster fails it over (or it is back).
      retryDelayOnClusterDown: 100,
      retryDelayOnFailover: 100,
      maxRedirections: 8,
      slotsRefreshTimeout: options.connectTimeout ?? 1_000,
      redisOptions: perNode,
    });
  }
  if (config.redisUrl) return new Redis(config.redisUrl, options);
  return undefined;
}

/** The client's masters: the cluster's, or the one Redis. SCAN and KEYS see one node at a time. */
export const mastersOf = (client: RedisClient): Redis[] =>
  client instanceof Cluster ? client.nodes('master') : [client];

/** Redis as a client found it: answering, or not (with the error, or still connecting). */
export type RedisSeen = { reachable: true } | { reachable: false; reason: string };
