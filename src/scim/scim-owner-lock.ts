import { HttpStatus, Injectable } from '@nestjs/common';
import { Leases, LeaseTerms, LeaseUnavailableError } from '../database/leases';
import { SCIM_MESSAGES, ScimError } from './scim-errors';

/**
 * The organisation's lease: held past the longest change (reads and writes of the identity store,
 * with the SDK's retries) and renewed while it runs; a change waits 15 s for it before it answers
 * 409 (the identity provider tries again).
 */
export const OWNER_LEASE: LeaseTerms = { ttlMs: 60_000, waitMs: 15_000, retryMs: 20 };

/**
 * The last-owner guard under concurrency (docs/scim.md): SCIM's changes that may take an owner away
 * (a deactivation, a delete, a change of groups or of the role mapping) run one at a time per
 * organisation, from their count of the owners to the identity store's last write, each holding the
 * organisation's lease. The owners are counted where they are kept (the users table, or the user
 * pool, which no transaction of ours can reach), so the count and the write are serialised around
 * it rather than inside one transaction.
 */
@Injectable()
export class ScimOwnerLock {
  constructor(private readonly leases: Leases) {}

  async holding<T>(tenantId: string, change: () => Promise<T>): Promise<T> {
    const name = `scim-owners/${tenantId}`;
    try {
      return await this.leases.holding(name, OWNER_LEASE, change);
    } catch (error) {
      if (error instanceof LeaseUnavailableError && error.leaseName === name)
        throw new ScimError(HttpStatus.CONFLICT, SCIM_MESSAGES.ownersChanging);
      throw error;
    }
  }
}
