import { Entity } from 'typeorm';
import { IdColumn, VarcharColumn, TimestampColumn } from '../columns';

/** A user of the `local` identity store. Cognito mode never touches this table. */
@Entity({ name: 'users' })
export class UserEntity {
  @IdColumn(128)
  id: string;

  @VarcharColumn(320)
  email: string;

  /**
   * emailKey(email): how e-mail look-ups find the row (README "Comparing e-mail addresses").
   * Null on a row written without it (by hand, or by a version before this column): such rows
   * are still found through `email`.
   */
  @VarcharColumn(64, { name: 'email_key', nullable: true })
  emailKey?: string | null;

  @VarcharColumn(32, { name: 'platform_role', nullable: true })
  platformRole: string | null;

  @VarcharColumn(32, { name: 'user_type', nullable: true })
  userType: string | null;

  @VarcharColumn(128, { name: 'tenant_id', nullable: true })
  tenantId: string | null;

  @VarcharColumn(16, { nullable: true })
  role: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;
}
