import { Entity } from 'typeorm';
import { IdColumn, VarcharColumn, TimestampColumn } from '../columns';

export const TENANT_TYPES = ['personal', 'organisation', 'charity', 'business', 'nonprofit'] as const;
export type TenantType = (typeof TENANT_TYPES)[number];

/** Spec section 2's initial status, then the lifecycle's (docs/tenant-lifecycle.md). */
export const TENANT_STATUSES = ['pending_owner', 'active', 'suspended', 'deleted'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

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
