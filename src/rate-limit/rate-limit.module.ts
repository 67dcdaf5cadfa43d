import { Module } from '@nestjs/common';
import { ThrottlerModule, ThrottlerModuleOptions } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { redisConfigured } from '../config/redis-client';
import { InviteAllowance } from './invite-allowance';
import { InviteCounters } from './invite-counters';
import { InviteQuota } from './invite-quota';
import { InviteQuotaController } from './invite-quota.controller';
import { MemoryThrottlerStorage } from './memory-throttler-storage';
import { RedisThrottlerStorage } from './redis-throttler-storage';

export const RATE_LIMITED = 'Too many invitations. Please try again later.';

/**
 * The invitation rate limit: INVITE_RATE_LIMIT per INVITE_RATE_WINDOW_SECONDS. Its one throttler
 * applies only where InviteThrottlerGuard is used; no guard is global. A caller over the limit
 * is refused for a whole window, with Retry-After. GET /api/org/invite/quota reads the counter.
 */
export function throttlerOptions(config: AppConfig): ThrottlerModuleOptions {
  return {
    throttlers: [{ limit: config.inviteRateLimit, ttl: config.inviteRateWindowSeconds * 1_000 }],
    errorMessage: RATE_LIMITED,
    storage: redisConfigured(config)
      ? new RedisThrottlerStorage(config, config.redisKeyPrefix)
      : new MemoryThrottlerStorage(),
  };
}

@Module({
  imports: [ThrottlerModule.forRootAsync({ inject: [AppConfig], useFactory: throttlerOptions })],
  controllers: [InviteQuotaController],
  providers: [InviteQuota, InviteAllowance, InviteCounters],
  exports: [InviteAllowance, InviteCounters],
})
export class RateLimitModule {}
