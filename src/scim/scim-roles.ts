import { Injectable } from '@nestjs/common';
import { AuditActor, roleEvents } from '../audit/audit-event';
import { AuditRecorder } from '../audit/audit-recorder';
import { Clock } from '../common/clock';
import { ScimUserEntity } from '../database/entities';
import { IdentityStore, IdentityUser, TenantRole } from '../identity/identity-store';
import { GrantsStore, RoleDefinition } from '../permissions/grants.store';
import { retryWhileChanged } from '../roles/retry-while-changed';
import { RolesStore } from '../roles/roles.store';
import { scimEvents } from './scim-events';
import { ScimMemberships } from './scim-memberships';
import { RoleMapping, ScimRoleMappingsStore } from './scim-role-mappings.store';

/** Highest first: a member of several mapped groups holds the highest of their roles. */
const RANK: Record<TenantRole, number> = { owner: 3, admin: 2, member: 1 };

/** What a reconciliation changes for one member: the base role, the custom roles, or both. */
export interface RoleChange {
  user: IdentityUser;
  role: TenantRole;
  /** The member's custom roles before and after; equal when only the base role changes. */
  customBefore: string[];
  customAfter: string[];
}

/** The base role that group keys map to: the highest, else member. */
export function roleFor(groupKeys: Iterable<string>, mapping: RoleMapping): TenantRole {
  let role: TenantRole = 'member';
  for (const key of groupKeys) {
    const mapped = mapping.get(key)?.role;
    if (mapped && RANK[mapped] > RANK[role]) role = mapped;
  }
  return role;
}

/**
 * The custom roles a member holds after a reconciliation: those that no group maps to stay as they
 * are (given by hand or by an invitation), and those that some group maps to are held exactly when
 * one of the member's groups maps to them. Sorted.
 */
export function customRolesFor(held: string[], groupKeys: Iterable<string>, mapping: RoleMapping): string[] {
  const mapped = new Set([...mapping.values()].flatMap((group) => group.roles));
  const fromGroups = [...groupKeys].flatMap((key) => mapping.get(key)?.roles ?? []);
  return [...new Set([...held.filter((key) => !mapped.has(key)), ...fromGroups])].sort();
}

const sameKeys = (a: string[], b: string[]) => a.length === b.length && a.every((key, i) => key === b[i]);

/**
 * Roles from groups (docs/scim.md, "Roles from groups"): a SCIM member's base role is the highest
 * that their groups map to, else member, and their custom roles follow the groups that map to
 * them; recomputed for the members a change of groups or of the mapping touches. The change is
 * planned first, so that the last-owner guard refuses it before anything is written.
 */
@Injectable()
export class ScimRoles {
  constructor(
    private readonly mappings: ScimRoleMappingsStore,
    private readonly identity: IdentityStore,
    private readonly memberships: ScimMemberships,
    private readonly audit: AuditRecorder,
    private readonly grants: GrantsStore,
    private readonly roles: RolesStore,
    private readonly clock: Clock,
  ) {}

  mapping(tenantId: string): Promise<RoleMapping> {
    return this.mappings.mapping(tenantId);
  }

  /** The keys (case-folded displayNames) of the groups of each of these SCIM users. */
  groupKeysOf(tenantId: string, scimUserIds: string[]): Promise<Map<string, Set<string>>> {
    return this.mappings.groupKeysOf(tenantId, scimUserIds);
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
    const members: { user: IdentityUser; keys: Set<string> }[] = [];
    for (const scimUser of users) {
      if (scimUser.active !== 1) continue;
      const user = await this.identity.findById(scimUser.userId);
      if (user && user.tenantId === tenantId) members.push({ user, keys: keysAfter.get(scimUser.id) ?? new Set() });
    }
    const held = await this.grants.rolesOfMembers(
      tenantId,
      members.map(({ user }) => user.id),
    );
    const changes: RoleChange[] = [];
    for (const { user, keys } of members) {
      const role = roleFor(keys, mapping);
      const customBefore = held.get(user.id) ?? [];
      const customAfter = customRolesFor(customBefore, keys, mapping);
      if (role !== user.role || !sameKeys(customBefore, customAfter))
        changes.push({ user, role, customBefore, customAfter });
    }
    const losing = changes.filter((change) => change.user.role === 'owner' && change.role !== 'owner');
    const gaining = changes.filter((change) => change.role === 'owner' && change.user.role !== 'owner').length;
    await this.memberships.refuseLosingLastOwner(
      tenantId,
      actor,
      losing.map((change) => change.user),
      gaining,
      attempted,
    );
    return changes;
  }

  /**
   * Writes the planned roles: a base role recorded as member.updated once the identity store has it;
   * custom roles in a transaction of their own, recorded as member.roles_changed.
   */
  async apply(tenantId: string, tokenOrOwner: AuditActor, changes: RoleChange[]): Promise<void> {
    for (const change of changes) {
      const { user, role } = change;
      if (role !== user.role) {
        await this.identity.setTenantRole(user.id, role);
        await this.audit.recordAfterIdentityChange({
          ...scimEvents.memberUpdated(tenantId, tokenOrOwner.id, user, { roleBefore: user.role, roleAfter: role }),
          actor: tokenOrOwner,
        });
      }
      if (!sameKeys(change.customBefore, change.customAfter)) await this.applyCustom(tenantId, tokenOrOwner, change);
    }
  }

  /**
   * The member's custom roles become what the plan computed, each role given or taken away at the
   * version read now; a role changed meanwhile is read again, and one deleted meanwhile is left out.
   */
  private async applyCustom(tenantId: string, actor: AuditActor, change: RoleChange): Promise<void> {
    const { user } = change;
    await retryWhileChanged(async () => {
      const defined = new Map((await this.grants.roles(tenantId)).map((role) => [role.key, role]));
      const before = (await this.grants.rolesOfMembers(tenantId, [user.id])).get(user.id) ?? [];
      const after = change.customAfter.filter((key) => defined.has(key));
      if (sameKeys(before, after)) return true;
      const touched = [...before.filter((key) => !after.includes(key)), ...after.filter((key) => !before.includes(key))]
        .map((key) => defined.get(key))
        .filter((role): role is RoleDefinition => role !== undefined);
      const event = roleEvents.memberRolesChanged(user, tenantId, before, after, actor);
      return (await this.roles.replaceMemberRoles(tenantId, user.id, touched, after, this.clock.now(), event))
        ? true
        : undefined;
    });
  }
}
