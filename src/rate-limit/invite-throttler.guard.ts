import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Response } from 'express';
import { Caller } from '../auth/caller';
import { Metrics } from '../metrics/metrics';

/** The one throttler's name (the framework's default): part of the counter's key. */
export const INVITE_THROTTLER = 'default';

/** One key per caller for every route that spends invitations (the framework's default keys by route). */
export const inviteLimitKey = (callerId: string): string =>
  createHash('sha256').update(`invitations-${INVITE_THROTTLER}-${callerId}`).digest('hex');

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, the three-field form):
 * the limit, what is left of it, and the seconds until it is whole again.
 */
export const RATE_LIMIT_HEADERS = {
  limit: 'RateLimit-Limit',
  remaining: 'RateLimit-Remaining',
  reset: 'RateLimit-Reset',
} as const;

/**
 * Spec 4.9 rule 7 and section 8: invitations are counted per caller user id, not per address.
 * Listed after OrgAdminGuard, so only authorised requests are counted, each one whatever its
 * outcome; the duplicate check comes later, in the service. Every route that sends an invitation
 * (the invite, and the resend) spends from the same counter.
 *
 * Every answer that reaches it carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset;
 * a 429 adds Retry-After, and its Reset is the Retry-After. These replace the framework's
 * X-RateLimit-* names: nothing read those, and one set is less to document.
 */
@Injectable()
export class InviteThrottlerGuard extends ThrottlerGuard {
  // A property, not a constructor parameter: ThrottlerGuard's constructor is the framework's.
  @Inject(Metrics) private readonly metrics!: Metrics;

  /** The framework names the success headers `${headerPrefix}-Limit`, `-Remaining` and `-Reset`. */
  protected override headerPrefix = 'RateLimit';

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    return (request.user as Caller).id;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return inviteLimitKey(tracker);
  }

  /** The framework sets only Retry-After on a refusal: the three fields are added here. */
  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    this.metrics.inviteRateLimited();
    const response = context.switchToHttp().getResponse<Response>();
    response.setHeader(RATE_LIMIT_HEADERS.limit, detail.limit);
    response.setHeader(RATE_LIMIT_HEADERS.remaining, 0);
    response.setHeader(RATE_LIMIT_HEADERS.reset, detail.timeToBlockExpire);
    return super.throwThrottlingException(context, detail);
  }
}
