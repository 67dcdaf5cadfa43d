import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn, VarcharColumn } from '../columns';

/** A permission of the product's catalogue (docs/roles.md), declared by a super-admin. */
@Entity({ name: 'product_permissions' })
export class ProductPermissionEntity {
  @PrimaryColumn({ type: 'varchar', length: 100, name: 'permission_key' })
  key: string;

  @VarcharColumn(500, { nullable: true })
  description: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;
}

/** An organisation's custom role; its permissions are rows of org_role_permissions. */
@Entity({ name: 'org_roles' })
export class OrgRoleEntity {
  @PrimaryColumn({ type: 'varchar', length: 128, name: 'tenant_id' })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 40, name: 'role_key' })
  key: string;

  @VarcharColumn(100)
  name: string;

  @VarcharColumn(500, { nullable: true })
  description: string | null;

  /**
   * Raised by every write that depends on the role as it was read (an edit, a deletion, a grant or a
   * withdrawal of it), each a compare-and-set on it: of two such writes judged at once, one goes through.
   */
  @Column({ type: 'int' })
  version: number;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('updated_at')
  updatedAt: Date;
}

/** One permission of a custom role. */
@Entity({ name: 'org_role_permissions' })
export class OrgRolePermissionEntity {
  @PrimaryColumn({ type: 'varchar', length: 128, name: 'tenant_id' })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 40, name: 'role_key' })
  roleKey: string;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  permission: string;
}

/** A custom role that a member of the organisation holds, beside the base role of the spec. */
@Entity({ name: 'member_roles' })
export class MemberRoleEntity {
  @PrimaryColumn({ type: 'varchar', length: 128, name: 'tenant_id' })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 128, name: 'user_id' })
  userId: string;

  @PrimaryColumn({ type: 'varchar', length: 40, name: 'role_key' })
  roleKey: string;

  @TimestampColumn('granted_at')
  grantedAt: Date;
}

/** A custom role that an invitation carries, for the invitee to hold once they join. */
@Entity({ name: 'invitation_roles' })
export class InvitationRoleEntity {
  @PrimaryColumn({ type: 'varchar', length: 36, name: 'invitation_id' })
  invitationId: string;

  @PrimaryColumn({ type: 'varchar', length: 40, name: 'role_key' })
  roleKey: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;
}
