import { NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter, HoldingQuery, Insert, RequiredUpdate, Statement } from '../database/atomic-writer';
import {
  InvitationRoleEntity,
  OrgDomainRoleEntity,
  OrgRoleEntity,
  OrgRolePermissionEntity,
  ProductPermissionEntity,
  ScimRoleMappingRoleEntity,
} from '../database/entities';
import { isUniqueViolation } from '../database/unique-violation';
import { PreparedStatements, sqlTimestamp } from '../database/prepared-statements';
import { memberRole, RoleDefinition, roleUnchanged } from '../permissions/grants.store';
import { CatalogueChange, RoleFields } from './role-rules';
import { SqlStore } from '../database/sql-store';

/** The reassignment of a deleted role's holders, invitations, SCIM groups and domains to another role. */
export interface Reassignment {
  target: RoleDefinition;
  /** Holders of the deleted role who do not hold the target yet: they get it. */
  holders: string[];
  /** Invitations carrying the deleted role and not the target: they carry it instead. */
  invitations: string[];
  /** SCIM groups (by key) mapped to the deleted role and not to the target: mapped to it instead. */
  groups: string[];
  /** Domains (by id) that give the deleted role to their joins and not the target: they give it instead. */
  domains: string[];
}

const COUNT_ROLES =
  'SELECT 1 AS reached FROM (SELECT COUNT(*) AS defined FROM org_roles WHERE tenant_id = ?) counted WHERE defined >= ?';
/** Read from the (tenant_id, role_key, user_id) index alone. */
const COUNT_HOLDERS = 'SELECT COUNT(*) AS holders FROM member_roles WHERE tenant_id = ? AND role_key = ?';
const SELECT_HOLDERS =
  'SELECT user_id AS userId FROM member_roles WHERE tenant_id = ? AND role_key = ? ORDER BY user_id';
const SELECT_INVITATIONS_CARRYING =
  'SELECT invitation_id AS invitationId FROM invitation_roles WHERE tenant_id = ? AND role_key = ?';
const UPDATE_ROLE =
  'UPDATE org_roles SET name = ?, description = ?, updated_at = ?, version = version + 1 ' +
  'WHERE tenant_id = ? AND role_key = ? AND version = ?';
const DELETE_ROLE_PERMISSIONS = 'DELETE FROM org_role_permissions WHERE tenant_id = ? AND role_key = ?';
const DELETE_ROLE_HOLDINGS = 'DELETE FROM member_roles WHERE tenant_id = ? AND role_key = ?';
const DELETE_ROLE_INVITATIONS = 'DELETE FROM invitation_roles WHERE tenant_id = ? AND role_key = ?';
const SELECT_GROUPS_MAPPED =
  'SELECT group_key AS groupKey FROM scim_role_mapping_roles WHERE tenant_id = ? AND role_key = ?';
const DELETE_ROLE_GROUPS = 'DELETE FROM scim_role_mapping_roles WHERE tenant_id = ? AND role_key = ?';
const SELECT_DOMAINS_GIVING = 'SELECT domain_id AS domainId FROM org_domain_roles WHERE tenant_id = ? AND role_key = ?';
const DELETE_ROLE_DOMAINS = 'DELETE FROM org_domain_roles WHERE tenant_id = ? AND role_key = ?';
const DELETE_ROLE = 'DELETE FROM org_roles WHERE tenant_id = ? AND role_key = ?';
const DELETE_MEMBER_ROLES = 'DELETE FROM member_roles WHERE tenant_id = ? AND user_id = ?';
const inList = (count: number) => `(${Array(count).fill('?').join(', ')})`;
/** Read from the permission index. */
const selectRolesCarrying = (count: number) =>
  'SELECT tenant_id AS tenantId, role_key AS roleKey, permission FROM org_role_permissions ' +
  `WHERE permission IN ${inList(count)} ORDER BY tenant_id, role_key, permission`;
const deleteProductPermissions = (count: number) =>
  `DELETE FROM product_permissions WHERE permission_key IN ${inList(count)}`;
const deleteRolePermissionsOf = (count: number) =>
  `DELETE FROM org_role_permissions WHERE permission IN ${inList(count)}`;
const DESCRIBE_PRODUCT_PERMISSION = 'UPDATE product_permissions SET description = ? WHERE permission_key = ?';
const TOUCH_ROLE = 'UPDATE org_roles SET updated_at = ?, version = version + 1 WHERE tenant_id = ? AND role_key = ?';

/**
 * The writes of custom roles and permissions (docs/roles.md), each one transaction with its audit
 * events (AtomicWriter). A write that depends on a role as it was read raises the role's version as
 * a compare-and-set: false, and nothing written, when a parallel write changed the role first.
 * The reads that authorisation and the lists make are GrantsStore's.
 */
@SqlStore()
export class RolesStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
  ) {}

  /** A new role, unless the tenant holds `limit` roles already or has one with its key. */
  async create(
    tenantId: string,
    role: RoleFields,
    at: Date,
    event: NewAuditEvent,
    limit: number,
  ): Promise<'created' | 'limit' | 'exists'> {
    const row: OrgRoleEntity = {
      tenantId,
      key: role.key,
      name: role.name,
      description: role.description,
      version: 0,
      createdAt: at,
      updatedAt: at,
    };
    const full: HoldingQuery = [COUNT_ROLES, [tenantId, limit]];
    try {
      const inserts = [
        [OrgRoleEntity, row] as Insert,
        ...this.permissionRows(tenantId, role),
        ...this.auditRows.of(event),
      ];
      return (await this.writer.insertUnless(inserts, full)) ? 'created' : 'limit';
    } catch (error) {
      if (isUniqueViolation(error)) return 'exists';
      throw error;
    }
  }

  /** The role's name, description and permissions, if it is still as `before` read it. */
  async update(tenantId: string, before: RoleDefinition, after: RoleFields, at: Date, event: NewAuditEvent) {
    return this.writer.insertIfAll(
      [...this.permissionRows(tenantId, after), ...this.auditRows.of(event)],
      [[UPDATE_ROLE, [after.name, after.description, sqlTimestamp(at), tenantId, before.key, before.version]]],
      [[DELETE_ROLE_PERMISSIONS, [tenantId, before.key]]],
    );
  }

  async countHolders(tenantId: string, key: string): Promise<number> {
    return Number((await this.statements.first(COUNT_HOLDERS, [tenantId, key], true))?.holders ?? 0);
  }

  /** Every holder of the role, by id: for a reassignment, whose events name each of them. */
  async holders(tenantId: string, key: string): Promise<string[]> {
    return (await this.statements.causalRows(SELECT_HOLDERS, [tenantId, key])).map((row) => row.userId as string);
  }

  async invitationsCarrying(tenantId: string, key: string): Promise<string[]> {
    const rows = await this.statements.causalRows(SELECT_INVITATIONS_CARRYING, [tenantId, key]);
    return rows.map((row) => row.invitationId as string);
  }

  /** The SCIM groups (by key) that the organisation's role mapping maps to the role. */
  async groupsMappedTo(tenantId: string, key: string): Promise<string[]> {
    const rows = await this.statements.causalRows(SELECT_GROUPS_MAPPED, [tenantId, key]);
    return rows.map((row) => row.groupKey as string);
  }

  /** The domains (by id) that give the role to the people who join by them. */
  async domainsGiving(tenantId: string, key: string): Promise<string[]> {
    const rows = await this.statements.causalRows(SELECT_DOMAINS_GIVING, [tenantId, key]);
    return rows.map((row) => row.domainId as string);
  }

  /**
   * Deletes the role, its permissions, its holdings, what invitations carry it, the SCIM groups'
   * mapping to it and the domains' giving it; with a reassignment, the holders, invitations, groups
   * and domains that lack the target get it, in the same transaction.
   * False when the role, or the target, changed since they were read.
   */
  async delete(
    tenantId: string,
    role: RoleDefinition,
    reassignment: Reassignment | null,
    events: NewAuditEvent[],
    at: Date,
  ): Promise<boolean> {
    const required: RequiredUpdate[] = [roleUnchanged(tenantId, role)];
    const inserts: Insert[] = [];
    if (reassignment) {
      const { target } = reassignment;
      required.push(roleUnchanged(tenantId, target));
      for (const userId of reassignment.holders) inserts.push(memberRole(tenantId, userId, target.key, at));
      for (const invitationId of reassignment.invitations)
        inserts.push([
          InvitationRoleEntity,
          { invitationId, roleKey: target.key, tenantId } satisfies InvitationRoleEntity,
        ]);
      for (const groupKey of reassignment.groups)
        inserts.push([
          ScimRoleMappingRoleEntity,
          { tenantId, groupKey, roleKey: target.key } satisfies ScimRoleMappingRoleEntity,
        ]);
      for (const domainId of reassignment.domains)
        inserts.push([OrgDomainRoleEntity, { domainId, roleKey: target.key, tenantId } satisfies OrgDomainRoleEntity]);
    }
    const deletes: Statement[] = [
      [DELETE_ROLE_PERMISSIONS, [tenantId, role.key]],
      [DELETE_ROLE_HOLDINGS, [tenantId, role.key]],
      [DELETE_ROLE_INVITATIONS, [tenantId, role.key]],
      [DELETE_ROLE_GROUPS, [tenantId, role.key]],
      [DELETE_ROLE_DOMAINS, [tenantId, role.key]],
      [DELETE_ROLE, [tenantId, role.key]],
    ];
    return this.writer.insertIfAll(
      [...inserts, ...events.flatMap((event) => this.auditRows.of(event))],
      required,
      deletes,
    );
  }

  /**
   * The member's custom roles become `after`, if each role given or taken away (`touched`) is still
   * at the version read: a role deleted or changed meanwhile makes it false, and nothing is written.
   */
  async replaceMemberRoles(
    tenantId: string,
    userId: string,
    touched: RoleDefinition[],
    after: string[],
    at: Date,
    event: NewAuditEvent,
  ): Promise<boolean> {
    return this.writer.insertIfAll(
      [...after.map((key) => memberRole(tenantId, userId, key, at)), ...this.auditRows.of(event)],
      touched.map((role) => roleUnchanged(tenantId, role)),
      [[DELETE_MEMBER_ROLES, [tenantId, userId]]],
    );
  }

  /** The roles, of every organisation, that carry one of these permissions: a read of the permission index. */
  async rolesCarrying(permissions: string[]): Promise<{ tenantId: string; key: string; permission: string }[]> {
    if (!permissions.length) return [];
    const rows = await this.statements.causalRows(selectRolesCarrying(permissions.length), permissions);
    return rows.map((row) => ({
      tenantId: row.tenantId as string,
      key: row.roleKey as string,
      permission: row.permission as string,
    }));
  }

  /**
   * The product's catalogue changes: permissions added, removed (and taken out of every role that
   * carried them, `rolesChanged`, whose versions rise) and described anew, with the events, in one
   * transaction.
   */
  async replaceCatalogue(
    change: CatalogueChange,
    rolesChanged: { tenantId: string; key: string }[],
    events: NewAuditEvent[],
    at: Date,
  ): Promise<void> {
    const deletes: Statement[] = [];
    const { removed } = change;
    if (removed.length) {
      deletes.push([deleteProductPermissions(removed.length), removed]);
      deletes.push([deleteRolePermissionsOf(removed.length), removed]);
    }
    for (const { tenantId, key } of rolesChanged) deletes.push([TOUCH_ROLE, [sqlTimestamp(at), tenantId, key]]);
    for (const { key, description } of change.described)
      deletes.push([DESCRIBE_PRODUCT_PERMISSION, [description, key]]);
    const inserts = change.added.map(({ key, description }): Insert => [
      ProductPermissionEntity,
      { key, description, createdAt: at } satisfies ProductPermissionEntity,
    ]);
    await this.writer.insertIfAll([...inserts, ...events.flatMap((event) => this.auditRows.of(event))], [], deletes);
  }

  private permissionRows(tenantId: string, role: RoleFields): Insert[] {
    return role.permissions.map((permission): Insert => [
      OrgRolePermissionEntity,
      { tenantId, roleKey: role.key, permission } satisfies OrgRolePermissionEntity,
    ]);
  }
}
