import { HttpStatus, Injectable } from '@nestjs/common';
import { auditActor, roleEvents } from '../audit/audit-event';
import { Caller, OrgCaller } from '../auth/caller';
import { isOrgUser } from '../auth/org-admin.policy';
import { Clock } from '../common/clock';
import { IdentityStore, IdentityUser } from '../identity/identity-store';
import { GrantsStore, HeldRoles } from '../permissions/grants.store';
import { MemberPermissions } from '../permissions/member-permissions';
import { ROLE_ERRORS, roleRefusal } from '../permissions/role-errors';
import { toMemberResponse } from '../org-members/dto/member.response';
import { CheckPermissionsDto, SetMemberRolesDto } from './dto/role-bodies';
import { MemberRolesResponse, MyPermissionsResponse, PermissionCheckResponse } from './dto/role.response';
import { touchedRoles } from './role-rules';
import { RolesStore } from './roles.store';
import { retryWhileChanged } from './retry-while-changed';

/**
 * Who holds which custom roles, and what a member may do now (docs/roles.md): the roles of a member,
 * the permission check of the portal, and the signed-in person's own permissions.
 */
@Injectable()
export class MemberRolesService {
  constructor(
    private readonly identity: IdentityStore,
    private readonly grants: GrantsStore,
    private readonly store: RolesStore,
    private readonly permissions: MemberPermissions,
    private readonly clock: Clock,
  ) {}

  /**
   * PUT /api/org/members/{id}/roles, in order: the caller's own roles (400), a user of another
   * organisation or none (404), an owner by a non-owner (403), the limit and the roles (422), the
   * caller's own permissions over every role given or taken away (403). The change holds from the
   * next request on every instance: the guard reads the store.
   */
  async setRoles(caller: OrgCaller, id: string, dto: SetMemberRolesDto): Promise<MemberRolesResponse> {
    const target = await this.memberOf(caller, id, true);
    if (caller.role !== 'owner' && target.role === 'owner')
      throw roleRefusal(HttpStatus.FORBIDDEN, ROLE_ERRORS.ownerProtected);
    const after = [...dto.roles].sort();
    await this.permissions.grantable(caller.tenantId, after, null);
    return retryWhileChanged(async () => {
      const [roles, held] = await Promise.all([
        this.grants.roles(caller.tenantId),
        this.grants.rolesOfMembers(caller.tenantId, [target.id]),
      ]);
      const before = held.get(target.id) ?? [];
      const touched = touchedRoles(before, after).map((key) => roles.find((role) => role.key === key));
      // A role given was deleted since the check above: answer as if it had never been.
      const gone = after.find((key) => !roles.some((role) => role.key === key));
      if (gone !== undefined)
        throw roleRefusal(HttpStatus.UNPROCESSABLE_ENTITY, ROLE_ERRORS.unknownRole, { role: gone });
      await this.permissions.refuseEscalation(
        caller,
        touched.flatMap((role) => role?.permissions ?? []),
      );
      const answer = { success: true as const, member: { ...toMemberResponse(target), roles: after } };
      if (!touched.length) return answer;
      const event = roleEvents.memberRolesChanged(target, caller.tenantId, before, after, auditActor(caller));
      const written = await this.store.replaceMemberRoles(
        caller.tenantId,
        target.id,
        touched.filter((role) => role !== undefined),
        after,
        this.clock.now(),
        event,
      );
      return written ? answer : undefined;
    });
  }

  /**
   * POST /api/org/permissions/check: whether the caller, or another member (every member holds
   * `members:read`, which that needs), holds each permission now. A string that names no permission
   * is false, never an error. One indexed read of the member's roles, whatever the organisation's size:
   * the caller's own are `callerRoles`, which the guard read beside the caller's record.
   */
  async check(caller: OrgCaller, dto: CheckPermissionsDto, callerRoles?: HeldRoles): Promise<PermissionCheckResponse> {
    const self = dto.userId === undefined || dto.userId === caller.id;
    const member = self ? caller : await this.memberOf(caller, dto.userId!);
    const { held } = await this.permissions.of(
      { id: member.id, tenantId: caller.tenantId, role: member.role },
      self ? callerRoles : undefined,
    );
    return { results: Object.fromEntries(dto.permissions.map((permission) => [permission, held.has(permission)])) };
  }

  /**
   * GET /api/me/permissions: the signed-in person's organisation, roles and permissions, by the
   * stored record (never the token's claims). None while the organisation is suspended: every org
   * route refuses its members then.
   */
  async mine(caller: Caller): Promise<MyPermissionsResponse> {
    const record = await this.identity.findById(caller.id);
    const nobody: MyPermissionsResponse = { organisation: null, role: null, roles: [], permissions: [] };
    if (!record || !isOrgUser(record)) return nobody;
    const effective = await this.permissions.of({ id: record.id, tenantId: record.tenantId, role: record.role });
    if (!effective.tenant || effective.tenant.status === 'deleted') return nobody;
    return {
      organisation: { id: effective.tenant.id, name: effective.tenant.name },
      role: record.role,
      roles: effective.roles,
      permissions: effective.tenant.status === 'suspended' ? [] : [...effective.held].sort(),
    };
  }

  /**
   * The user `id` of the caller's organisation: another organisation's user is answered as a missing one.
   * `notSelf`: the caller naming themselves is 400, before and after the look-up (a store may match ids loosely).
   */
  private async memberOf(caller: OrgCaller, id: string, notSelf = false): Promise<IdentityUser> {
    const refuseSelf = () => roleRefusal(HttpStatus.BAD_REQUEST, ROLE_ERRORS.ownRoles);
    if (notSelf && id === caller.id) throw refuseSelf();
    const user = await this.identity.findById(id);
    if (!user || user.tenantId !== caller.tenantId || !isOrgUser(user))
      throw roleRefusal(HttpStatus.NOT_FOUND, ROLE_ERRORS.userNotFound);
    if (notSelf && user.id === caller.id) throw refuseSelf();
    return user;
  }
}
