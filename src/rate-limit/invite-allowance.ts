import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import type { Response } from 'express';
import { Caller } from '../auth/caller';
import { AppConfig } from '../config/app-config';
import { INVITE_THROTTLER, inviteLimitKey, RATE_LIMIT_HEADERS } from './invite-throttler.guard';
import { InviteLimitState, InviteLimitStorage } from './invite-limit-storage';

/**
 * Units of the caller's invitation limit for a request that invites several people at once: the
 * counter that InviteThrottlerGuard spends one request at a time (Redis when configured), spent
 * here one unit per invitation. `granted` of the units asked for may be used; release gives back
 * the ones that were not.
 */
export interface InviteUnits {
  readonly granted: number;
  /** Gives back units that were granted and not used (a failed write). */
  release(units: number): Promise<void>;
  /** The RateLimit-* fields as the counter stands after this request. */
  setHeaders(response: Response): void;
}

@Injectable()
export class InviteAllowance {
  constructor(
    @InjectThrottlerStorage() private readonly storage: InviteLimitStorage,
    private readonly config: AppConfig,
  ) {}

  /** Takes up to `wanted` units, atomically: instances sharing the counter never together pass the limit. */
  async reserve(caller: Caller, wanted: number): Promise<InviteUnits> {
    const key = inviteLimitKey(caller.id);
    const ttl = this.config.inviteRateWindowSeconds * 1_000;
    const { granted, state } = await this.storage.reserve(
      key,
      ttl,
      this.config.inviteRateLimit,
      wanted,
      INVITE_THROTTLER,
    );
    let released = 0;
    return {
      granted,
      release: async (units) => {
        if (units <= 0) return;
        released += units;
        await this.storage.release(key, units, INVITE_THROTTLER);
      },
      setHeaders: (response) => this.setHeaders(response, { ...state, totalHits: state.totalHits - released }),
    };
  }

  /** What reserve would grant now, taking nothing (a dry run). */
  async preview(caller: Caller, wanted: number): Promise<InviteUnits> {
    const state = await this.storage.peek(inviteLimitKey(caller.id), INVITE_THROTTLER);
    return {
      granted: Math.min(wanted, this.remaining(state)),
      release: async () => undefined,
      setHeaders: (response) => this.setHeaders(response, state),
    };
  }

  private remaining(state: InviteLimitState): number {
    return state.blockEndsInMs > 0 ? 0 : Math.max(0, this.config.inviteRateLimit - state.totalHits);
  }

  /** As InviteThrottlerGuard sets them; the reset is 0 when no window is open (the quota is whole). */
  private setHeaders(response: Response, state: InviteLimitState): void {
    const resetInMs = state.blockEndsInMs > 0 ? state.blockEndsInMs : (state.windowEndsInMs ?? 0);
    response.setHeader(RATE_LIMIT_HEADERS.limit, this.config.inviteRateLimit);
    response.setHeader(RATE_LIMIT_HEADERS.remaining, this.remaining(state));
    response.setHeader(RATE_LIMIT_HEADERS.reset, Math.ceil(resetInMs / 1_000));
  }
}
