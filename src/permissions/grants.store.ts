import { Insert, RequiredUpdate, Statement } from '../database/atomic-writer';
import { MemberRoleEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { PreparedStatements, Row, timestamp } from '../database/prepared-statements';
import { SqlStore } from '../database/sql-store';

/** Ids read per statement by the reads of many members or invitations: one statement for a page of a list. */
export const IDS_PER_READ = 128;
const IN_IDS = `(${Array(IDS_PER_READ).fill('?').join(', ')})`;

/** The compare-and-set of every write that depends on a role as it was read. */
const RAISE_ROLE_VERSION =
  'UPDATE org_roles SET version = version + 1 WHERE tenant_id = ? AND role_key = ? AND version = ?';

/** A write's condition: the role is still at the version read (neither changed nor deleted meanwhile). */
export const roleUnchanged = (tenantId: string, role: Pick<RoleDefinition, 'key' | 'version'>): RequiredUpdate => [
  RAISE_ROLE_VERSION,
  [tenantId, role.key, role.version],
];

/** The row of a member's custom role. */
export const memberRole = (tenantId: string, userId: string, roleKey: string, grantedAt: Date): Insert => [
  MemberRoleEntity,
  { tenantId, userId, roleKey, grantedAt } satisfies MemberRoleEntity,
];

/**
 * The tenant's status and whether one of the member's custom roles carries the permission, in one
 * statement: the tenant by primary key, the member's roles by (tenant, user), each role's
 * permission by primary key. No row: no such tenant.
 */
const SELECT_GRANT =
  'SELECT tenants.id AS tenantRowId, tenants.status AS tenantStatus, member_roles.role_key AS roleKey, ' +
  'org_role_permissions.permission AS granted FROM tenants ' +
  'LEFT JOIN member_roles ON member_roles.tenant_id = tenants.id AND member_roles.user_id = ? ' +
  'LEFT JOIN org_role_permissions ON org_role_permissions.tenant_id = member_roles.tenant_id ' +
  'AND org_role_permissions.role_key = member_roles.role_key AND org_role_permissions.permission = ? ' +
  'WHERE tenants.id = ?';
/** The tenant, and the member's custom roles with all their permissions, in one statement. */
const SELECT_HELD =
  'SELECT tenants.id AS tenantRowId, tenants.name AS tenantName, tenants.status AS tenantStatus, ' +
  'member_roles.role_key AS roleKey, org_role_permissions.permission AS permission FROM tenants ' +
  'LEFT JOIN member_roles ON member_roles.tenant_id = tenants.id AND member_roles.user_id = ? ' +
  'LEFT JOIN org_role_permissions ON org_role_permissions.tenant_id = member_roles.tenant_id ' +
  'AND org_role_permissions.role_key = member_roles.role_key WHERE tenants.id = ?';
const SELECT_ROLES_OF_MEMBERS =
  'SELECT user_id AS userId, role_key AS roleKey FROM member_roles ' + `WHERE tenant_id = ? AND user_id IN ${IN_IDS}`;
const SELECT_ROLES_OF_INVITATIONS =
  'SELECT invitation_id AS invitationId, role_key AS roleKey FROM invitation_roles ' +
  `WHERE invitation_id IN ${IN_IDS}`;
/** Every custom role of the tenant with its permissions (at most ROLES_PER_ORG roles), by key. */
const SELECT_ROLES =
  'SELECT org_roles.role_key AS roleKey, org_roles.name AS name, org_roles.description AS description, ' +
  'org_roles.version AS version, org_roles.created_at AS createdAt, org_roles.updated_at AS updatedAt, ' +
  'org_role_permissions.permission AS permission FROM org_roles LEFT JOIN org_role_permissions ' +
  'ON org_role_permissions.tenant_id = org_roles.tenant_id AND org_role_permissions.role_key = org_roles.role_key ' +
  'WHERE org_roles.tenant_id = ? ORDER BY org_roles.role_key, org_role_permissions.permission';
const SELECT_PRODUCT_PERMISSIONS =
  'SELECT permission_key AS permissionKey, description FROM product_permissions ORDER BY permission_key';
const SELECT_MEMBER_ROLES = 'SELECT role_key AS roleKey FROM member_roles WHERE tenant_id = ? AND user_id = ?';
const DELETE_MEMBER_ROLES = 'DELETE FROM member_roles WHERE tenant_id = ? AND user_id = ?';
const selectHolderBatch = (limit: number) =>
  `SELECT DISTINCT user_id AS userId FROM member_roles WHERE tenant_id = ? LIMIT ${Math.trunc(limit)}`;
const deleteHolders = (count: number) =>
  `DELETE FROM member_roles WHERE tenant_id = ? AND user_id IN (${Array(count).fill('?').join(', ')})`;
const selectInvitationBatch = (limit: number) =>
  `SELECT DISTINCT invitation_id AS invitationId FROM invitation_roles WHERE tenant_id = ? LIMIT ${Math.trunc(limit)}`;
const deleteInvitationRoles = (count: number) =>
  `DELETE FROM invitation_roles WHERE invitation_id IN (${Array(count).fill('?').join(', ')})`;
const DELETE_TENANT_ROLE_PERMISSIONS = 'DELETE FROM org_role_permissions WHERE tenant_id = ?';
const DELETE_TENANT_ROLES = 'DELETE FROM org_roles WHERE tenant_id = ?';

/** What the guard learns of a caller whose base role does not hold a route's permission. */
export interface CustomGrant {
  /** The tenant's status; null when there is no such tenant. */
  tenantStatus: TenantStatus | null;
  /** Whether one of the member's custom roles carries the permission. */
  granted: boolean;
}

/** A member's custom roles and everything they carry, with the tenant they are held in. */
export interface HeldRoles {
  tenant: { id: string; name: string | null; status: TenantStatus } | null;
  /** Keys, in code-point order. */
  roles: string[];
  /** The custom roles' permissions, in code-point order. */
  permissions: string[];
}

/** A custom role as stored. */
export interface RoleDefinition {
  key: string;
  name: string;
  description: string | null;
  /** In code-point order. */
  permissions: string[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProductPermission {
  key: string;
  description: string | null;
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * The reads of custom roles and permissions that authorisation and the lists make, and what a
 * removal takes away; the writes of roles are the roles module's (RolesStore). Every read is a range
 * of a primary key or an index, whatever the organisation's size.
 */
@SqlStore()
export class GrantsStore {
  constructor(private readonly statements: PreparedStatements) {}

  /** One statement, causal on Galera (as the status read it replaces): a change holds from the next request. */
  async grantOf(tenantId: string, userId: string, permission: string): Promise<CustomGrant> {
    const rows = await this.statements.causalRows(SELECT_GRANT, [userId, permission, tenantId]);
    // MySQL pads trailing spaces even in a binary collation: only the exact id counts.
    const tenant = rows.find((row) => row.tenantRowId === tenantId);
    return {
      tenantStatus: tenant ? (tenant.tenantStatus as TenantStatus) : null,
      granted: !!tenant && rows.some((row) => row.granted === permission),
    };
  }

  /** One statement, causal on Galera. */
  async heldBy(tenantId: string, userId: string): Promise<HeldRoles> {
    const rows = (await this.statements.causalRows(SELECT_HELD, [userId, tenantId])).filter(
      (row) => row.tenantRowId === tenantId,
    );
    if (!rows.length) return { tenant: null, roles: [], permissions: [] };
    const { tenantName, tenantStatus } = rows[0];
    return {
      tenant: { id: tenantId, name: tenantName as string | null, status: tenantStatus as TenantStatus },
      roles: sorted(rows.flatMap((row) => (row.roleKey === null ? [] : [row.roleKey as string]))),
      permissions: sorted(rows.flatMap((row) => (row.permission === null ? [] : [row.permission as string]))),
    };
  }

  /** Each member's custom roles (in code-point order); members without any are not in the map. */
  async rolesOfMembers(tenantId: string, userIds: string[]): Promise<Map<string, string[]>> {
    return this.grouped(
      userIds,
      (batch) => this.statements.rows(SELECT_ROLES_OF_MEMBERS, [tenantId, ...batch]),
      'userId',
    );
  }

  /** Each invitation's custom roles (in code-point order); invitations without any are not in the map. */
  async rolesOfInvitations(invitationIds: string[]): Promise<Map<string, string[]>> {
    return this.grouped(
      invitationIds,
      (batch) => this.statements.rows(SELECT_ROLES_OF_INVITATIONS, batch),
      'invitationId',
    );
  }

  /** Every custom role of the tenant, by key in code-point order. */
  async roles(tenantId: string): Promise<RoleDefinition[]> {
    const roles = new Map<string, RoleDefinition>();
    for (const row of await this.statements.causalRows(SELECT_ROLES, [tenantId])) {
      const key = row.roleKey as string;
      let role = roles.get(key);
      if (!role) roles.set(key, (role = toRoleDefinition(row)));
      if (row.permission !== null) role.permissions.push(row.permission as string);
    }
    return [...roles.values()];
  }

  /** The product's catalogue, by key. */
  async productPermissions(): Promise<ProductPermission[]> {
    return (await this.statements.rows(SELECT_PRODUCT_PERMISSIONS)).map((row) => ({
      key: row.permissionKey as string,
      description: row.description as string | null,
    }));
  }

  /** The statement that takes the member's custom roles away, in the transaction that ends the membership. */
  memberRolesDeletion(tenantId: string, userId: string): Statement {
    return [DELETE_MEMBER_ROLES, [tenantId, userId]];
  }

  /** Takes the member's custom roles away, as the membership ends: the roles it held. */
  async removeMember(tenantId: string, userId: string): Promise<string[]> {
    const held = await this.statements.rows(SELECT_MEMBER_ROLES, [tenantId, userId]);
    if (held.length) await this.statements.changes(DELETE_MEMBER_ROLES, [tenantId, userId]);
    return sorted(held.map((row) => row.roleKey as string));
  }

  /**
   * One bounded step of a tenant's deletion: the custom roles of up to `limit` members, else of up
   * to `limit` invitations, else the roles themselves. How many rows' owners it cleared: 0 once none is left.
   */
  async removeTenantStep(tenantId: string, limit: number): Promise<number> {
    const holders = (await this.statements.rows(selectHolderBatch(limit), [tenantId])).map((row) => row.userId);
    if (holders.length) return this.statements.changes(deleteHolders(holders.length), [tenantId, ...holders]);
    const invitations = (await this.statements.rows(selectInvitationBatch(limit), [tenantId])).map(
      (row) => row.invitationId,
    );
    if (invitations.length) return this.statements.changes(deleteInvitationRoles(invitations.length), invitations);
    await this.statements.changes(DELETE_TENANT_ROLE_PERMISSIONS, [tenantId]);
    return this.statements.changes(DELETE_TENANT_ROLES, [tenantId]);
  }

  /** Rows of `read` by `idColumn`, a batch of ids at a time (padded to IDS_PER_READ: one statement for every batch). */
  private async grouped(
    ids: string[],
    read: (batch: string[]) => Promise<Row[]>,
    idColumn: string,
  ): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += IDS_PER_READ) {
      const batch = unique.slice(start, start + IDS_PER_READ);
      const padded = [...batch, ...Array<string>(IDS_PER_READ - batch.length).fill(batch[batch.length - 1])];
      for (const row of await read(padded)) {
        const id = row[idColumn] as string;
        // MySQL pads trailing spaces even in a binary collation: only the exact ids count.
        if (!batch.includes(id)) continue;
        found.set(id, [...(found.get(id) ?? []), row.roleKey as string]);
      }
    }
    for (const [id, keys] of found) found.set(id, sorted(keys));
    return found;
  }
}

const toRoleDefinition = (row: Row): RoleDefinition => ({
  key: row.roleKey as string,
  name: row.name as string,
  description: row.description as string | null,
  permissions: [],
  version: Number(row.version),
  createdAt: timestamp(row.createdAt),
  updatedAt: timestamp(row.updatedAt),
});
