import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { Caller } from '../auth/caller';

/**
 * Spec 4.9 rule 7 and section 8: invitations are counted per caller user id, not per address.
 * Listed after OrgAdminGuard, so only authorised requests are counted, each one whatever its
 * outcome; the duplicate check comes later, in the service.
 */
@Injectable()
export class InviteThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    return (request.user as Caller).id;
  }
}
