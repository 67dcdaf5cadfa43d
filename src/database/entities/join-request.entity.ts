import { Entity } from 'typeorm';
import { IdColumn, TimestampColumn, VarcharColumn } from '../columns';

export const JOIN_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type JoinRequestStatus = (typeof JOIN_REQUEST_STATUSES)[number];

/** A person's request to join an organisation by its verified domain, in join mode `request`. */
@Entity({ name: 'join_requests' })
export class JoinRequestEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  @VarcharColumn(128, { name: 'user_id' })
  userId: string;

  @VarcharColumn(320)
  email: string;

  @VarcharColumn(253)
  domain: string;

  @VarcharColumn(16)
  status: JoinRequestStatus;

  /** `<tenant>:<user>` while pending, else null: unique, one pending request per person and organisation. */
  @VarcharColumn(300, { name: 'pending_key', nullable: true })
  pendingKey: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('decided_at', { nullable: true })
  decidedAt: Date | null;
}
