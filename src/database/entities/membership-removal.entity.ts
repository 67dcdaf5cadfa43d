import { Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn, VarcharColumn } from '../columns';

/** Why a membership ended without the person leaving of their own accord. */
export const REMOVAL_REASONS = ['removed', 'scim_deactivated', 'scim_deleted', 'account_deleted'] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

/**
 * That an organisation took a person out (src/memberships): kept until what brings them back (SCIM
 * reactivating or provisioning them; a later invitation of their address outweighs it when read),
 * whatever the audit trail's retention.
 */
@Entity({ name: 'membership_removals' })
export class MembershipRemovalEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 128 })
  tenantId: string;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 128 })
  userId: string;

  /** The address's key (emailKey) when they were removed. */
  @VarcharColumn(64, { name: 'email_key' })
  emailKey: string;

  @VarcharColumn(20)
  reason: RemovalReason;

  @TimestampColumn('removed_at')
  removedAt: Date;
}
