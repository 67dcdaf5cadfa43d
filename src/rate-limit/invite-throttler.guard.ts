import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { Caller } from '../auth/caller';
import { Metrics } from '../metrics/metrics';

/**
 * Spec 4.9 rule 7 and section 8: invitations are counted per caller user id, not per address.
 * Listed after OrgAdminGuard, so only authorised requests are counted, each one whatever its
 * outcome; the duplicate check comes later, in the service. Every route that sends an invitation
 * (the invite, and issue 12's resend) spends from the same counter.
 */
@Injectable()
export class InviteThrottlerGuard extends ThrottlerGuard {
  // A property, not a constructor parameter: ThrottlerGuard's constructor is the framework's.
  @Inject(Metrics) private readonly metrics!: Metrics;

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    return (request.user as Caller).id;
  }

  /** One key per caller for every route that uses this guard (the framework's default keys by route). */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return createHash('sha256').update(`invitations-${throttlerName}-${tracker}`).digest('hex');
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    this.metrics.inviteRateLimited();
    return super.throwThrottlingException(context, detail);
  }
}
