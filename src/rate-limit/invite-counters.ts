import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import { InviteLimitStorage } from './invite-limit-storage';

/** Every caller's invitation counter at once: test mode empties them, and its clock moves them (docs/test-mode.md). */
@Injectable()
export class InviteCounters {
  constructor(@InjectThrottlerStorage() private readonly storage: InviteLimitStorage) {}

  clear(): Promise<void> {
    return this.storage.clear();
  }

  advance(ms: number): Promise<void> {
    return this.storage.advance(ms);
  }
}
