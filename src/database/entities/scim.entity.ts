import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IdColumn, TimestampColumn, VarcharColumn } from '../columns';

/** An organisation's SCIM bearer token: only the SHA-256 hash of its secret is kept (docs/scim.md). */
@Entity({ name: 'scim_tokens' })
export class ScimTokenEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  @VarcharColumn(64, { name: 'secret_hash' })
  secretHash: string;

  @VarcharColumn(128, { name: 'created_by' })
  createdBy: string;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('last_used_at', { nullable: true })
  lastUsedAt: Date | null;
}

/** A SCIM User resource: one member of the organisation that its identity provider manages. */
@Entity({ name: 'scim_users' })
export class ScimUserEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  /** The person in the identity store. */
  @VarcharColumn(128, { name: 'user_id' })
  userId: string;

  @VarcharColumn(320, { name: 'user_name' })
  userName: string;

  /** userName lower-cased: RFC 7643 makes it caseExact false. */
  @VarcharColumn(320, { name: 'user_name_key' })
  userNameKey: string;

  @VarcharColumn(255, { name: 'external_id', nullable: true })
  externalId: string | null;

  /** The primary e-mail, lower-cased. */
  @VarcharColumn(320, { name: 'email_key' })
  emailKey: string;

  /** 1 (true), 0 (false), or -1: unassigned by a PATCH, not active either (scim-resources.ts, UNASSIGNED). */
  @Column({ type: 'int' })
  active: number;

  /** The role held when SCIM detached the person; null while active. */
  @VarcharColumn(16, { nullable: true })
  role: string | null;

  /** The resource's other attributes, as JSON. */
  @Column({ type: 'text' })
  attributes: string;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('last_modified')
  lastModified: Date;
}

/** A SCIM Group resource of an organisation. */
@Entity({ name: 'scim_groups' })
export class ScimGroupEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  @VarcharColumn(255, { name: 'display_name' })
  displayName: string;

  @VarcharColumn(255, { name: 'display_name_key' })
  displayNameKey: string;

  @VarcharColumn(255, { name: 'external_id', nullable: true })
  externalId: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('last_modified')
  lastModified: Date;
}

@Entity({ name: 'scim_group_members' })
export class ScimGroupMemberEntity {
  @PrimaryColumn({ name: 'group_id', type: 'varchar', length: 36 })
  groupId: string;

  @PrimaryColumn({ name: 'scim_user_id', type: 'varchar', length: 36 })
  scimUserId: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;
}

/** PUT /api/org/scim/role-mapping: the role that members of a group (by displayName, case-folded) hold. */
@Entity({ name: 'scim_role_mappings' })
export class ScimRoleMappingEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 128 })
  tenantId: string;

  @PrimaryColumn({ name: 'group_key', type: 'varchar', length: 255 })
  groupKey: string;

  @VarcharColumn(255, { name: 'group_name' })
  groupName: string;

  @VarcharColumn(16)
  role: string;
}

/** A custom role that members of a mapped group hold (docs/scim.md, "Roles from groups"). */
@Entity({ name: 'scim_role_mapping_roles' })
export class ScimRoleMappingRoleEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 128 })
  tenantId: string;

  @PrimaryColumn({ name: 'group_key', type: 'varchar', length: 255 })
  groupKey: string;

  @PrimaryColumn({ name: 'role_key', type: 'varchar', length: 40 })
  roleKey: string;
}
