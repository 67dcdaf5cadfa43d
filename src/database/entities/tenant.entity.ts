import { Entity } from 'typeorm';
import { IdColumn, VarcharColumn, TimestampColumn } from '../columns';

export const TENANT_TYPES = ['personal', 'organisation', 'charity', 'business', 'nonprofit'] as const;
export type TenantType = (typeof TENANT_TYPES)[number];
/** A tenant is pending_owner from its creation (spec 4.4) until its first owner joins; then active. */
export const TENANT_STATUSES = { pendingOwner: 'pending_owner', active: 'active' } as const;

@Entity({ name: 'tenants' })
export class TenantEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(255, { nullable: true })
  name: string | null;

  @VarcharColumn(32)
  type: string;

  @VarcharColumn(32)
  status: string;

  @TimestampColumn('created_at')
  createdAt: Date;
}
