import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import type { RedisSeen } from '../config/redis-client';
import { InviteLimitStorage } from './invite-limit-storage';

/**
 * Every caller's invitation counter at once: test mode empties them, and its clock moves them
 * (docs/test-mode.md); and where they are counted, for the start-up line.
 */
@Injectable()
export class InviteCounters {
  constructor(@InjectThrottlerStorage() private readonly storage: InviteLimitStorage) {}

  /** What the counters' storage saw of Redis (the start-up line says it); null without Redis. */
  redisSeen(): RedisSeen | null {
    return this.storage.redisSeen();
  }

  clear(): Promise<void> {
    return this.storage.clear();
  }

  advance(ms: number): Promise<void> {
    return this.storage.advance(ms);
  }
}
