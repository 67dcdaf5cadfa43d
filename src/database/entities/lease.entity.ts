import { Column, Entity, PrimaryColumn } from 'typeorm';
import { VarcharColumn } from '../columns';

/** A lease and the row that transactions write to run one after another (src/database/leases.ts). */
@Entity({ name: 'leases' })
export class LeaseEntity {
  @PrimaryColumn({ type: 'varchar', length: 191 })
  name: string;

  @VarcharColumn(64, { nullable: true })
  holder: string | null;

  /** Epoch milliseconds: past it, the holder no longer holds the lease. */
  @Column({ name: 'held_until', type: 'bigint', default: 0 })
  heldUntil: string;

  @Column({ type: 'bigint', default: 0 })
  version: string;
}
