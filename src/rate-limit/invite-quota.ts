import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import { Caller } from '../auth/caller';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { InviteQuotaResponse } from './dto/invite-quota.response';
import { INVITE_THROTTLER, inviteLimitKey } from './invite-throttler.guard';
import { InviteLimitStorage } from './invite-limit-storage';

/**
 * The caller's invitation quota (docs/organisation.md, "Quota"), read from the counter that
 * InviteThrottlerGuard spends (Redis when configured, so every instance answers alike) without
 * counting anything.
 */
@Injectable()
export class InviteQuota {
  constructor(
    @InjectThrottlerStorage() private readonly storage: InviteLimitStorage,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async of(caller: Caller): Promise<InviteQuotaResponse> {
    const limit = this.config.inviteRateLimit;
    const state = await this.storage.peek(inviteLimitKey(caller.id), INVITE_THROTTLER);
    // To the second, as RateLimit-Reset counts: reads a few milliseconds apart give the same instant.
    const at = (inMs: number) => new Date(Math.ceil((this.clock.now().getTime() + inMs) / 1_000) * 1_000).toISOString();
    if (state.blockEndsInMs > 0) return { limit, remaining: 0, resetAt: at(state.blockEndsInMs) };
    return {
      limit,
      remaining: Math.max(0, limit - state.totalHits),
      resetAt: state.windowEndsInMs === null ? null : at(state.windowEndsInMs),
    };
  }
}
