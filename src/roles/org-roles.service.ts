import { HttpStatus, Injectable } from '@nestjs/common';
import { auditActor, roleEvents } from '../audit/audit-event';
import { OrgCaller } from '../auth/caller';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { GrantsStore, RoleDefinition } from '../permissions/grants.store';
import { MemberPermissions } from '../permissions/member-permissions';
import { isRoleKey, isSystemRole } from '../permissions/permission-catalogue';
import { ProductCatalogue } from '../permissions/product-catalogue';
import { ROLE_ERRORS, roleRefusal } from '../permissions/role-errors';
import { CreateRoleDto, UpdateRoleDto } from './dto/role-bodies';
import {
  ChangedRoleResponse,
  DeletedRoleResponse,
  ListRolesResponse,
  OneRoleResponse,
  toRoleResponse,
  toSystemRoleResponses,
} from './dto/role.response';
import { catalogueRefusal, changedFields, roleAfterEdit, rolesAfterReassignment } from './role-rules';
import { RolesStore } from './roles.store';
import { retryWhileChanged } from './retry-while-changed';

/**
 * An organisation's roles (docs/roles.md): the three system roles of the spec and its own. The
 * guard confirmed the caller (members:read to read, roles:manage to change); a caller defines,
 * changes and deletes only roles whose permissions it holds itself.
 */
@Injectable()
export class OrgRolesService {
  constructor(
    private readonly grants: GrantsStore,
    private readonly store: RolesStore,
    private readonly catalogue: ProductCatalogue,
    private readonly permissions: MemberPermissions,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async list(caller: OrgCaller): Promise<ListRolesResponse> {
    const [custom, product] = await Promise.all([this.grants.roles(caller.tenantId), this.catalogue.keys()]);
    return { roles: [...toSystemRoleResponses(product), ...custom.map(toRoleResponse)] };
  }

  async get(caller: OrgCaller, key: string): Promise<OneRoleResponse> {
    if (isSystemRole(key))
      return { role: toSystemRoleResponses(await this.catalogue.keys()).find((role) => role.key === key)! };
    return { role: toRoleResponse(await this.existing(caller, key)) };
  }

  /** In order: a reserved key, the permissions (known, grantable), the caller's own, the limit, a key in use. */
  async create(caller: OrgCaller, dto: CreateRoleDto): Promise<ChangedRoleResponse> {
    if (isSystemRole(dto.key)) throw roleRefusal(HttpStatus.CONFLICT, ROLE_ERRORS.reserved);
    const role = roleAfterEdit(null, { ...dto, key: dto.key });
    await this.refuseOutsideCatalogue(role.permissions);
    await this.permissions.refuseEscalation(caller, role.permissions);
    const now = this.clock.now();
    const limit = this.config.roles.perOrg;
    const event = roleEvents.roleCreated(caller.tenantId, role, auditActor(caller));
    const outcome = await this.store.create(caller.tenantId, role, now, event, limit);
    if (outcome === 'limit') throw roleRefusal(HttpStatus.UNPROCESSABLE_ENTITY, ROLE_ERRORS.limit, { limit });
    if (outcome === 'exists') throw roleRefusal(HttpStatus.CONFLICT, ROLE_ERRORS.exists);
    return { success: true, role: toRoleResponse({ ...role, version: 0, createdAt: now, updatedAt: now }) };
  }

  /**
   * In order: an empty edit, a system role, the permissions (known, grantable), the role, the
   * caller's own (of the role before and after). An edit that changes nothing writes nothing.
   */
  async update(caller: OrgCaller, key: string, dto: UpdateRoleDto): Promise<ChangedRoleResponse> {
    if (dto.name === undefined && dto.description === undefined && dto.permissions === undefined)
      throw roleRefusal(HttpStatus.BAD_REQUEST, ROLE_ERRORS.invalidBody);
    if (isSystemRole(key)) throw roleRefusal(HttpStatus.CONFLICT, ROLE_ERRORS.system);
    if (dto.permissions) await this.refuseOutsideCatalogue(dto.permissions);
    return retryWhileChanged(async () => {
      const before = await this.existing(caller, key);
      const after = roleAfterEdit(before, dto);
      await this.permissions.refuseEscalation(caller, [...before.permissions, ...after.permissions]);
      if (!changedFields(before, after)) return { success: true, role: toRoleResponse(before) };
      const now = this.clock.now();
      const event = roleEvents.roleUpdated(caller.tenantId, before, after, auditActor(caller));
      if (!(await this.store.update(caller.tenantId, before, after, now, event))) return undefined;
      return { success: true, role: toRoleResponse({ ...before, ...after, updatedAt: now }) };
    });
  }

  /**
   * In order: a system role, the role, the role to reassign to (a custom role of the organisation),
   * the caller's own (of both), then: held by members and no `reassignTo`, 409 ROLE_IN_USE with the
   * count; else deleted, in one transaction with every holder's change to the other role.
   */
  async delete(caller: OrgCaller, key: string, reassignTo: unknown): Promise<DeletedRoleResponse> {
    if (isSystemRole(key)) throw roleRefusal(HttpStatus.CONFLICT, ROLE_ERRORS.system);
    return retryWhileChanged(async () => {
      const roles = await this.grants.roles(caller.tenantId);
      const role = this.find(roles, key);
      const target = reassignTo === undefined ? null : this.reassignmentTarget(roles, key, reassignTo);
      await this.permissions.refuseEscalation(caller, [...role.permissions, ...(target?.permissions ?? [])]);
      const actor = auditActor(caller);
      const now = this.clock.now();
      if (!target) {
        const members = await this.store.countHolders(caller.tenantId, key);
        if (members > 0) throw roleRefusal(HttpStatus.CONFLICT, ROLE_ERRORS.inUse, { members });
        const deleted = roleEvents.roleDeleted(caller.tenantId, role, 0, null, actor);
        return (await this.store.delete(caller.tenantId, role, null, [deleted], now)) ? { success: true } : undefined;
      }
      const [holders, invitations, groups, groupsOfTarget, domains, domainsOfTarget] = await Promise.all([
        this.store.holders(caller.tenantId, key),
        this.store.invitationsCarrying(caller.tenantId, key),
        this.store.groupsMappedTo(caller.tenantId, key),
        this.store.groupsMappedTo(caller.tenantId, target.key),
        this.store.domainsGiving(caller.tenantId, key),
        this.store.domainsGiving(caller.tenantId, target.key),
      ]);
      const [held, carried] = await Promise.all([
        this.grants.rolesOfMembers(caller.tenantId, holders),
        this.grants.rolesOfInvitations(invitations),
      ]);
      const events = [
        roleEvents.roleDeleted(caller.tenantId, role, holders.length, target.key, actor),
        ...holders.map((id) => {
          const before = held.get(id) ?? [key];
          return roleEvents.memberRolesChanged(
            { id, email: null },
            caller.tenantId,
            before,
            rolesAfterReassignment(before, key, target.key),
            actor,
            'role_deleted',
          );
        }),
      ];
      const reassignment = {
        target,
        holders: holders.filter((id) => !held.get(id)?.includes(target.key)),
        invitations: invitations.filter((id) => !carried.get(id)?.includes(target.key)),
        groups: groups.filter((group) => !groupsOfTarget.includes(group)),
        domains: domains.filter((domain) => !domainsOfTarget.includes(domain)),
      };
      if (!(await this.store.delete(caller.tenantId, role, reassignment, events, now))) return undefined;
      return { success: true, reassigned: holders.length };
    });
  }

  /** 422 UNKNOWN_PERMISSION or PERMISSION_NOT_GRANTABLE for the first permission a role may not carry. */
  private async refuseOutsideCatalogue(permissions: string[]): Promise<void> {
    const product = new Set((await this.grants.productPermissions()).map((permission) => permission.key));
    const refusal = catalogueRefusal(permissions, product);
    if (refusal) throw roleRefusal(HttpStatus.UNPROCESSABLE_ENTITY, refusal.error, { permission: refusal.permission });
  }

  private reassignmentTarget(roles: RoleDefinition[], key: string, reassignTo: unknown): RoleDefinition {
    const target =
      isRoleKey(reassignTo) && reassignTo !== key ? roles.find((role) => role.key === reassignTo) : undefined;
    if (!target)
      throw roleRefusal(HttpStatus.UNPROCESSABLE_ENTITY, ROLE_ERRORS.unknownRole, { role: String(reassignTo) });
    return target;
  }

  private async existing(caller: OrgCaller, key: string): Promise<RoleDefinition> {
    return this.find(await this.grants.roles(caller.tenantId), key);
  }

  private find(roles: RoleDefinition[], key: string): RoleDefinition {
    const role = roles.find((candidate) => candidate.key === key);
    if (!role) throw roleRefusal(HttpStatus.NOT_FOUND, ROLE_ERRORS.notFound);
    return role;
  }
}
