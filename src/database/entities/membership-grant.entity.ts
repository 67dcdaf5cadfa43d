import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn, VarcharColumn } from '../columns';

/**
 * A membership that the user pool (cognito mode) has yet to take: written in the transaction of
 * the join that grants it, written to the pool right after the commit, and retried until the
 * pool takes it; then deleted. The user id is the key: a user has at most one grant on its way,
 * so that two joins of one user cannot both be granted (the second insert fails).
 */
@Entity({ name: 'membership_grants' })
export class MembershipGrantEntity {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 128 })
  userId: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  @VarcharColumn(16)
  role: string;

  /** Attempts to write it to the pool, started so far. */
  @Column({ type: 'int' })
  attempts: number;

  @TimestampColumn('next_attempt_at')
  nextAttemptAt: Date;

  /** The instance writing it now; another may take it over once `claimedUntil` has passed. */
  @VarcharColumn(100, { name: 'claimed_by', nullable: true })
  claimedBy: string | null;

  @TimestampColumn('claimed_until', { nullable: true })
  claimedUntil: Date | null;

  /** Why the last attempt failed. */
  @VarcharColumn(1000, { name: 'last_error', nullable: true })
  lastError: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;
}
