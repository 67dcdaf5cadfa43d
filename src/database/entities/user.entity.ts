import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A user of the `local` identity store. Cognito mode never touches this table. */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  id: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  /**
   * emailKey(email): how e-mail look-ups find the row (README "Comparing e-mail addresses").
   * Null on a row written without it (by hand, or by a version before this column): such rows
   * are still found through `email`.
   */
  @Column({ name: 'email_key', type: 'varchar', length: 64, nullable: true })
  emailKey?: string | null;

  @Column({ name: 'platform_role', type: 'varchar', length: 32, nullable: true })
  platformRole: string | null;

  @Column({ name: 'user_type', type: 'varchar', length: 32, nullable: true })
  userType: string | null;

  @Column({ name: 'tenant_id', type: 'varchar', length: 128, nullable: true })
  tenantId: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  role: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
