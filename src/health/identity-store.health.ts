import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { IdentityStore } from '../identity/identity-store';
import { publicFailureMessage, withTimeout } from '../common/with-timeout';

export const IDENTITY_STORE_PING_TIMEOUT_MS = 2_000;

/**
 * Readiness of an identity store beside the database (Cognito): without it no session can be checked
 * against a user record. One in the database is checked with it.
 */
@Injectable()
export class IdentityStoreHealthIndicator {
  constructor(
    private readonly identity: IdentityStore,
    private readonly indicator: HealthIndicatorService,
  ) {}

  /** Whether the store is a dependency of its own, to be checked. */
  get needed(): boolean {
    return this.identity.pingedForReadiness;
  }

  async check(key: string) {
    const indicator = this.indicator.check(key);
    try {
      await withTimeout(this.identity.ping(), IDENTITY_STORE_PING_TIMEOUT_MS);
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: publicFailureMessage(error) });
    }
  }
}
