import { NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter, Insert } from '../database/atomic-writer';
import { ScimRoleMappingEntity, ScimRoleMappingRoleEntity } from '../database/entities';
import { PreparedStatements } from '../database/prepared-statements';
import { TenantRole } from '../identity/identity-store';
import { SqlStore } from '../database/sql-store';

/** Each mapped group (by displayName key): its displayName as given, its base role and its custom roles (sorted). */
export type RoleMapping = Map<string, { groupName: string; role: TenantRole; roles: string[] }>;

const SELECT_MAPPING =
  'SELECT group_key AS groupKey, group_name AS groupName, role FROM scim_role_mappings WHERE tenant_id = ?';
const SELECT_MAPPED_ROLES =
  'SELECT group_key AS groupKey, role_key AS roleKey FROM scim_role_mapping_roles WHERE tenant_id = ? ' +
  'ORDER BY group_key, role_key';
const DELETE_MAPPING = 'DELETE FROM scim_role_mappings WHERE tenant_id = ?';
const DELETE_MAPPED_ROLES = 'DELETE FROM scim_role_mapping_roles WHERE tenant_id = ?';
const selectGroupKeys = (count: number) =>
  'SELECT m.scim_user_id AS userId, g.display_name_key AS groupKey FROM scim_group_members m ' +
  `JOIN scim_groups g ON g.id = m.group_id WHERE m.tenant_id = ? AND m.scim_user_id IN (${Array(count).fill('?').join(', ')})`;

/** The organisation's mapping of SCIM groups to roles, and the groups its SCIM users are in. */
@SqlStore()
export class ScimRoleMappingsStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
  ) {}

  /** Two statements, each a range of a primary key: at most 100 groups. */
  async mapping(tenantId: string): Promise<RoleMapping> {
    const [groups, roles] = await Promise.all([
      this.statements.rows(SELECT_MAPPING, [tenantId]),
      this.statements.rows(SELECT_MAPPED_ROLES, [tenantId]),
    ]);
    const mapping: RoleMapping = new Map(
      groups.map((row) => [
        row.groupKey as string,
        { groupName: row.groupName as string, role: row.role as TenantRole, roles: [] },
      ]),
    );
    for (const row of roles) mapping.get(row.groupKey as string)?.roles.push(row.roleKey as string);
    return mapping;
  }

  /** The keys (case-folded displayNames) of the groups of each of these SCIM users. */
  async groupKeysOf(tenantId: string, scimUserIds: string[]): Promise<Map<string, Set<string>>> {
    const keys = new Map(scimUserIds.map((id) => [id, new Set<string>()]));
    if (!scimUserIds.length) return keys;
    const rows = await this.statements.rows(selectGroupKeys(scimUserIds.length), [tenantId, ...scimUserIds]);
    for (const row of rows) keys.get(row.userId as string)?.add(row.groupKey as string);
    return keys;
  }

  /** The old mapping out and `mapping` in, with its event: one transaction. */
  async replace(tenantId: string, mapping: RoleMapping, event: NewAuditEvent): Promise<void> {
    const rows: Insert[] = [];
    for (const [groupKey, { groupName, role, roles }] of mapping) {
      rows.push([ScimRoleMappingEntity, { tenantId, groupKey, groupName, role } satisfies ScimRoleMappingEntity]);
      for (const roleKey of roles)
        rows.push([ScimRoleMappingRoleEntity, { tenantId, groupKey, roleKey } satisfies ScimRoleMappingRoleEntity]);
    }
    await this.writer.insertIfAll(
      [...rows, ...this.auditRows.of(event)],
      [],
      [
        [DELETE_MAPPED_ROLES, [tenantId]],
        [DELETE_MAPPING, [tenantId]],
      ],
    );
  }
}
