import { Injectable } from '@nestjs/common';
import { AuditActor } from '../audit/audit-event';
import { AuditRecorder } from '../audit/audit-recorder';
import { ScimUserEntity } from '../database/entities';
import { PreparedStatements } from '../database/prepared-statements';
import { IdentityStore, IdentityUser, TenantRole } from '../identity/identity-store';
import { scimEvents } from './scim-events';
import { ScimMemberships } from './scim-memberships';

/** Highest first: a member of several mapped groups holds the highest of their roles. */
const RANK: Record<TenantRole, number> = { owner: 3, admin: 2, member: 1 };

const SELECT_MAPPING =
  'SELECT group_key AS groupKey, group_name AS groupName, role FROM scim_role_mappings WHERE tenant_id = ?';

/** A role that a reconciliation changes. */
export interface RoleChange {
  user: IdentityUser;
  role: TenantRole;
}

export type RoleMapping = Map<string, { groupName: string; role: TenantRole }>;

/** The role that group keys map to: the highest, else member. */
export function roleFor(groupKeys: Iterable<string>, mapping: RoleMapping): TenantRole {
  let role: TenantRole = 'member';
  for (const key of groupKeys) {
    const mapped = mapping.get(key)?.role;
    if (mapped && RANK[mapped] > RANK[role]) role = mapped;
  }
  return role;
}

/**
 * Roles from groups (docs/scim.md, "Roles from groups"): a SCIM member's role is the highest that
 * their groups map to, else member; recomputed for the members a change of groups or of the
 * mapping touches. The change is planned first, so that the last-owner guard refuses it before
 * anything is written.
 */
@Injectable()
export class ScimRoles {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly identity: IdentityStore,
    private readonly memberships: ScimMemberships,
    private readonly audit: AuditRecorder,
  ) {}

  async mapping(tenantId: string): Promise<RoleMapping> {
    const rows = await this.statements.rows(SELECT_MAPPING, [tenantId]);
    return new Map(
      rows.map((row) => [row.groupKey as string, { groupName: row.groupName as string, role: row.role as TenantRole }]),
    );
  }

  /** The keys (lower-cased displayNames) of the groups of each of these SCIM users. */
  async groupKeysOf(tenantId: string, scimUserIds: string[]): Promise<Map<string, Set<string>>> {
    const keys = new Map(scimUserIds.map((id) => [id, new Set<string>()]));
    if (!scimUserIds.length) return keys;
    const rows = await this.statements.rows(
      'SELECT m.scim_user_id AS userId, g.display_name_key AS groupKey FROM scim_group_members m ' +
        'JOIN scim_groups g ON g.id = m.group_id WHERE m.tenant_id = ? AND m.scim_user_id IN ' +
        `(${scimUserIds.map(() => '?').join(', ')})`,
      [tenantId, ...scimUserIds],
    );
    for (const row of rows) keys.get(row.userId as string)?.add(row.groupKey as string);
    return keys;
  }

  /**
   * The role changes that the groups `keysAfter` and `mapping` make for these SCIM users (active
   * ones only, still members of the tenant); refused (409 mutability, audited) when they would leave
   * the organisation without an owner.
   */
  async plan(
    tenantId: string,
    actor: AuditActor,
    users: ScimUserEntity[],
    keysAfter: Map<string, Set<string>>,
    mapping: RoleMapping,
    attempted: string,
  ): Promise<RoleChange[]> {
    const changes: RoleChange[] = [];
    for (const scimUser of users) {
      if (scimUser.active !== 1) continue;
      const user = await this.identity.findById(scimUser.userId);
      if (!user || user.tenantId !== tenantId) continue;
      const role = roleFor(keysAfter.get(scimUser.id) ?? [], mapping);
      if (role !== user.role) changes.push({ user, role });
    }
    const losing = changes.filter((change) => change.user.role === 'owner').map((change) => change.user);
    const gaining = changes.filter((change) => change.role === 'owner').length;
    await this.memberships.refuseLosingLastOwner(tenantId, actor, losing, gaining, attempted);
    return changes;
  }

  /** Writes the planned roles, each recorded as member.updated once the identity store has it. */
  async apply(tenantId: string, tokenOrOwner: AuditActor, changes: RoleChange[]): Promise<void> {
    for (const { user, role } of changes) {
      await this.identity.setTenantRole(user.id, role);
      await this.audit.recordAfterIdentityChange({
        ...scimEvents.memberUpdated(tenantId, tokenOrOwner.id, user, { roleBefore: user.role, roleAfter: role }),
        actor: tokenOrOwner,
      });
    }
  }
}
