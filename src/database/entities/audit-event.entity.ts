import { Column, Entity } from 'typeorm';
import { IdColumn, TimestampColumn, VarcharColumn } from '../columns';

/**
 * One state change that the service made: who (actor) did what (type) to whom (target).
 * Written in the transaction of the change where the change is in our database.
 */
@Entity({ name: 'audit_events' })
export class AuditEventEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(40)
  type: string;

  @TimestampColumn('occurred_at')
  occurredAt: Date;

  @VarcharColumn(128, { name: 'tenant_id', nullable: true })
  tenantId: string | null;

  /** Null when nobody signed in made the change: the public accept, the operator CLI. */
  @VarcharColumn(128, { name: 'actor_id', nullable: true })
  actorId: string | null;

  @VarcharColumn(320, { name: 'actor_email', nullable: true })
  actorEmail: string | null;

  @VarcharColumn(20, { name: 'target_type' })
  targetType: string;

  /** Null for an invitation: its id is its token, a secret. */
  @VarcharColumn(128, { name: 'target_id', nullable: true })
  targetId: string | null;

  @VarcharColumn(320, { name: 'target_email', nullable: true })
  targetEmail: string | null;

  /** The event's details as JSON, e.g. the role before and after. */
  @Column({ type: 'text' })
  data: string;
}
