/** Redis's settings: a Redis Cluster's seed nodes (REDIS_URL names one Redis), and the prefix of every key. */

import { ConfigError, Env, list, read } from './env-values';

/** A Redis Cluster's seed nodes (REDIS_CLUSTER_NODES), in the form ioredis' Cluster takes. */
export interface RedisNode {
  host: string;
  port: number;
}

/** REDIS_CLUSTER_NODES=host:port,…: a Redis Cluster's seed nodes; REDIS_URL names one Redis instead. */
export function redisClusterNodes(env: Env): RedisNode[] | undefined {
  const items = list(env, 'REDIS_CLUSTER_NODES');
  if (!items) return undefined;
  if (read(env, 'REDIS_URL') !== undefined) {
    throw new ConfigError(
      'REDIS_CLUSTER_NODES',
      'and REDIS_URL are both set: set REDIS_URL for one Redis, or REDIS_CLUSTER_NODES for a Redis Cluster, not both',
    );
  }
  return items.map((item) => {
    const match = /^([A-Za-z0-9.-]+):(\d{1,5})$/.exec(item);
    if (!match || Number(match[2]) > 65535) {
      throw new ConfigError('REDIS_CLUSTER_NODES', `must list host:port pairs separated by commas, got "${item}"`);
    }
    return { host: match[1], port: Number(match[2]) };
  });
}

/** REDIS_KEY_PREFIX: printable ASCII without spaces, as a key takes it. */
export function redisKeyPrefix(env: Env): string {
  const raw = read(env, 'REDIS_KEY_PREFIX') ?? 'tenant-service:';
  if (!/^[!-~]{1,100}$/.test(raw)) {
    throw new ConfigError(
      'REDIS_KEY_PREFIX',
      `must be 1 to 100 printable ASCII characters without spaces, got "${raw}"`,
    );
  }
  return raw;
}
