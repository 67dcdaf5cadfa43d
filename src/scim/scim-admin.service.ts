import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { auditActor } from '../audit/audit-event';
import { OrgCaller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { NOT_ORG_USER } from '../common/messages';
import { TENANT_ROLES, TenantRole } from '../identity/identity-store';
import { isRoleKey, isSystemRole } from '../permissions/permission-catalogue';
import { GrantsStore } from '../permissions/grants.store';
import { ROLE_ERRORS, roleRefusal } from '../permissions/role-errors';
import { SCIM_MESSAGES, ScimError, ScimErrorBody } from './scim-errors';
import { scimEvents } from './scim-events';
import { ScimOwnerLock } from './scim-owner-lock';
import { RoleMapping, ScimRoleMappingsStore } from './scim-role-mappings.store';
import { ScimRoles } from './scim-roles';
import { ScimTokensStore } from './scim-tokens.store';
import { ScimUsersStore } from './scim-users.store';

export const SCIM_ADMIN_ERRORS = {
  notOrgUser: NOT_ORG_USER,
  notOwner: 'Only owners can manage SCIM',
  tokenNotFound: 'Token not found',
  invalidMapping:
    'The role mapping is an object of group displayName to "owner", "admin" or "member", or to ' +
    '{"role": one of those, "roles": [custom role keys]}, at most 100 groups',
  failed: 'Failed to manage SCIM',
} as const;

export const MAX_MAPPED_GROUPS = 100;

/** The organisation's SCIM set-up, by its owners: tokens and the role mapping (docs/scim.md). */
@Injectable()
export class ScimAdminService {
  constructor(
    private readonly tokens: ScimTokensStore,
    private readonly roles: ScimRoles,
    private readonly users: ScimUsersStore,
    private readonly mappings: ScimRoleMappingsStore,
    private readonly grants: GrantsStore,
    private readonly ownerLock: ScimOwnerLock,
  ) {}

  async createToken(caller: OrgCaller) {
    const token = await this.tokens.create(caller.tenantId, auditActor(caller));
    return { success: true, token: { id: token.id, secret: token.secret, createdAt: token.createdAt.toISOString() } };
  }

  async listTokens(caller: OrgCaller) {
    return { tokens: await this.tokens.list(caller.tenantId) };
  }

  async revokeToken(caller: OrgCaller, id: string) {
    if (!(await this.tokens.revoke(caller.tenantId, id, auditActor(caller))))
      throw new ApiError(HttpStatus.NOT_FOUND, SCIM_ADMIN_ERRORS.tokenNotFound);
    return { success: true };
  }

  async roleMapping(caller: OrgCaller) {
    return { mapping: shown(await this.roles.mapping(caller.tenantId)) };
  }

  /**
   * Replaces the mapping and recomputes every active SCIM member's role; refused whole (409,
   * `scimType: "mutability"`, audited) when it would leave the organisation without an owner.
   */
  async setRoleMapping(caller: OrgCaller, body: unknown) {
    const mapping = readMapping(body);
    const { tenantId } = caller;
    await this.refuseUnknownRoles(tenantId, mapping);
    const actor = auditActor(caller);
    try {
      await this.ownerLock.holding(tenantId, async () => {
        const members = await this.users.allActive(tenantId);
        const keys = await this.roles.groupKeysOf(
          tenantId,
          members.map((member) => member.id),
        );
        const changes = await this.roles.plan(tenantId, actor, members, keys, mapping, 'role-mapping');
        await this.mappings.replace(tenantId, mapping, scimEvents.roleMappingUpdated(tenantId, shown(mapping), actor));
        await this.roles.apply(tenantId, actor, changes);
      });
    } catch (error) {
      // The org API answers in its own form, with the SCIM type alongside.
      if (!(error instanceof ScimError)) throw error;
      const { scimType, detail } = error.getResponse() as ScimErrorBody;
      if (scimType === 'mutability') throw new HttpException(LAST_OWNER_BODY, HttpStatus.CONFLICT);
      throw new ApiError(error.getStatus(), detail);
    }
    return { success: true, mapping: shown(mapping) };
  }

  /** 422 UNKNOWN_ROLE for the first custom role that the organisation does not define. */
  private async refuseUnknownRoles(tenantId: string, mapping: RoleMapping): Promise<void> {
    const wanted = [...mapping.values()].flatMap((group) => group.roles);
    if (!wanted.length) return;
    const defined = new Set((await this.grants.roles(tenantId)).map((role) => role.key));
    const unknown = wanted.find((key) => !defined.has(key));
    if (unknown) throw roleRefusal(HttpStatus.UNPROCESSABLE_ENTITY, ROLE_ERRORS.unknownRole, { role: unknown });
  }
}

/** The org API's 409 of the last-owner guard: its `{error}` form, with SCIM's type alongside. */
export const LAST_OWNER_BODY = { error: SCIM_MESSAGES.lastOwner, scimType: 'mutability' };

function readMapping(body: unknown): RoleMapping {
  if (!isPlainObject(body)) throw invalidMapping();
  const entries = Object.entries(body);
  if (entries.length > MAX_MAPPED_GROUPS) throw invalidMapping();
  const mapping: RoleMapping = new Map();
  for (const [name, value] of entries) {
    const groupName = name.trim();
    if (!groupName || groupName.length > 255) throw invalidMapping();
    mapping.set(groupName.toLowerCase(), { groupName, ...readMapped(value) });
  }
  return mapping;
}

/** A base role, or `{"role"?, "roles"}`: a base role (member when left out) and distinct custom role keys. */
function readMapped(value: unknown): { role: TenantRole; roles: string[] } {
  if (isTenantRole(value)) return { role: value, roles: [] };
  if (!isPlainObject(value) || Object.keys(value).some((key) => key !== 'role' && key !== 'roles'))
    throw invalidMapping();
  const { role = 'member', roles } = value;
  if (!isTenantRole(role) || !Array.isArray(roles) || roles.length > MAX_MAPPED_CUSTOM_ROLES) throw invalidMapping();
  if (!roles.every((key) => isRoleKey(key) && !isSystemRole(key)) || new Set(roles).size !== roles.length)
    throw invalidMapping();
  return { role, roles: [...(roles as string[])].sort() };
}

/** Custom roles per mapped group: as many as a member may hold. */
const MAX_MAPPED_CUSTOM_ROLES = 10;
const isTenantRole = (value: unknown): value is TenantRole => TENANT_ROLES.includes(value as TenantRole);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const invalidMapping = () => new ApiError(HttpStatus.BAD_REQUEST, SCIM_ADMIN_ERRORS.invalidMapping);

/** As given: a group's base role alone, or `{role, roles}` when it maps custom roles too. */
const shown = (mapping: RoleMapping) =>
  Object.fromEntries(
    [...mapping.values()].map(({ groupName, role, roles }) => [groupName, roles.length ? { role, roles } : role]),
  );
