import { Column, Entity, PrimaryColumn } from 'typeorm';

export const TENANT_TYPES = ['personal', 'organisation', 'charity', 'business', 'nonprofit'] as const;
export type TenantType = (typeof TENANT_TYPES)[number];

@Entity({ name: 'tenants' })
export class TenantEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 32 })
  status: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
