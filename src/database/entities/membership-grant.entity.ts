import { Entity } from 'typeorm';
import { VarcharColumn } from '../columns';
import { OutboxRowColumns } from '../outbox-row-columns';

/** A grant is deleted once the pool has it: no status records that. `failed`: the pool no longer has the user. */
export type MembershipGrantStatus = 'pending' | 'sending' | 'failed';

/**
 * A membership that the user pool (cognito mode) has yet to take, in an outbox: written in the
 * transaction of the join that grants it, written to the pool right after the commit, and retried
 * until the pool takes it; then deleted. The user id is unique: a user has at most one grant on its
 * way, so that two joins of one user cannot both be granted (the second insert fails).
 */
@Entity({ name: 'membership_grants' })
export class MembershipGrantEntity extends OutboxRowColumns<MembershipGrantStatus> {
  @VarcharColumn(128, { name: 'user_id' })
  userId: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  @VarcharColumn(16)
  role: string;
}
