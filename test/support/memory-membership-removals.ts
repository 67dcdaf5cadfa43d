import { AtomicWriter } from '../../src/database/atomic-writer';
import { PreparedStatements } from '../../src/database/prepared-statements';
import { MembershipRemoval, MembershipRemovalsStore } from '../../src/memberships/membership-removals.store';

/**
 * Removals kept in memory, for unit tests without a database: what the removing paths write. The
 * reads are the real store's, on no database: a test that reaches one fails.
 */
export class MemoryMembershipRemovals extends MembershipRemovalsStore {
  readonly remembered: MembershipRemoval[] = [];
  /** By user: the organisations they asked to join. */
  readonly requests = new Map<string, string[]>();

  constructor() {
    super(undefined as unknown as PreparedStatements, undefined as unknown as AtomicWriter);
  }

  override async remember(removals: MembershipRemoval[]): Promise<void> {
    this.remembered.push(...removals);
  }

  override async requestedTenants(userId: string): Promise<string[]> {
    return this.requests.get(userId) ?? [];
  }
}
