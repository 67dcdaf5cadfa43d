import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { createRedisClient, RedisClient } from '../config/redis-client';

/**
 * Test mode's clock offset, the same on every instance. With REDIS_URL (or REDIS_CLUSTER_NODES:
 * a cluster carries a PUBLISH to the subscribers of every node) it is kept in a Redis key
 * and announced on a channel: each instance reads the key at start-up and takes every announcement
 * as it arrives, so Clock.now() stays a local addition (no Redis call per read) and another
 * instance follows within the time a message takes (milliseconds). Without Redis it is this
 * instance's alone.
 */
@Injectable()
export class SharedClockOffset implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('TestMode');
  private readonly key: string;
  private readonly channel: string;
  private commands?: RedisClient;
  private subscriber?: RedisClient;

  constructor(
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    // Channels are not prefixed by ioredis' keyPrefix: both names carry the prefix themselves.
    this.key = `${config.redisKeyPrefix}test-mode:clock-offset-ms`;
    this.channel = `${config.redisKeyPrefix}test-mode:clock`;
    this.commands = createRedisClient(config, { lazyConnect: true, maxRetriesPerRequest: 1 });
    this.subscriber = createRedisClient(config, { lazyConnect: true });
    if (this.commands && this.subscriber) {
      for (const client of [this.commands, this.subscriber]) {
        client.on('error', (error) => this.logger.warn(`Redis: ${messageOf(error)}`));
      }
    }
  }

  async onModuleInit(): Promise<void> {
    if (!this.commands || !this.subscriber) return;
    await Promise.all([this.commands.connect(), this.subscriber.connect()]);
    this.subscriber.on('message', (_channel: string, offsetMs: string) => this.clock.setOffset(Number(offsetMs)));
    await this.subscriber.subscribe(this.channel);
    await this.reload();
    // Announcements made while the subscriber was cut off are lost: the key says where the clock is.
    this.subscriber.on('ready', () => void this.reload().catch((error) => this.logger.warn(messageOf(error))));
  }

  /** Moves the clock forward on every instance; the new offset. */
  async advance(ms: number): Promise<number> {
    if (!this.commands) return this.apply(this.clock.offset + ms);
    return this.announce(await this.commands.incrby(this.key, ms));
  }

  /** Back to the real time on every instance. */
  async reset(): Promise<number> {
    if (!this.commands) return this.apply(0);
    await this.commands.set(this.key, 0);
    return this.announce(0);
  }

  onApplicationShutdown(): void {
    this.commands?.disconnect();
    this.subscriber?.disconnect();
  }

  private async reload(): Promise<void> {
    this.clock.setOffset(Number((await this.commands!.get(this.key)) ?? 0));
  }

  private async announce(offsetMs: number): Promise<number> {
    await this.commands!.publish(this.channel, String(offsetMs));
    return this.apply(offsetMs);
  }

  private apply(offsetMs: number): number {
    this.clock.setOffset(offsetMs);
    return offsetMs;
  }
}
