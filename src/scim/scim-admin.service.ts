import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { auditActor } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { OrgCaller } from '../auth/caller';
import { ApiError } from '../common/api-error';
import { NOT_ORG_USER } from '../common/messages';
import { AtomicWriter, Insert } from '../database/atomic-writer';
import { ScimRoleMappingEntity } from '../database/entities';
import { TENANT_ROLES, TenantRole } from '../identity/identity-store';
import { SCIM_MESSAGES, ScimError, ScimErrorBody } from './scim-errors';
import { scimEvents } from './scim-events';
import { ScimOwnerLock } from './scim-owner-lock';
import { RoleMapping, ScimRoles } from './scim-roles';
import { ScimTokensStore } from './scim-tokens.store';
import { ScimUsersStore } from './scim-users.store';

export const SCIM_ADMIN_ERRORS = {
  notOrgUser: NOT_ORG_USER,
  notOwner: 'Only owners can manage SCIM',
  tokenNotFound: 'Token not found',
  invalidMapping:
    'The role mapping is an object of group displayName to "owner", "admin" or "member", at most 100 groups',
  failed: 'Failed to manage SCIM',
} as const;

export const MAX_MAPPED_GROUPS = 100;
const DELETE_MAPPING = 'DELETE FROM scim_role_mappings WHERE tenant_id = ?';

/** The organisation's SCIM set-up, by its owners: tokens and the role mapping (docs/scim.md). */
@Injectable()
export class ScimAdminService {
  constructor(
    private readonly tokens: ScimTokensStore,
    private readonly roles: ScimRoles,
    private readonly users: ScimUsersStore,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
    private readonly ownerLock: ScimOwnerLock,
  ) {}

  async createToken(caller: OrgCaller) {
    this.ownerOnly(caller);
    const token = await this.tokens.create(caller.tenantId, auditActor(caller));
    return { success: true, token: { id: token.id, secret: token.secret, createdAt: token.createdAt.toISOString() } };
  }

  async listTokens(caller: OrgCaller) {
    this.ownerOnly(caller);
    return { tokens: await this.tokens.list(caller.tenantId) };
  }

  async revokeToken(caller: OrgCaller, id: string) {
    this.ownerOnly(caller);
    if (!(await this.tokens.revoke(caller.tenantId, id, auditActor(caller))))
      throw new ApiError(HttpStatus.NOT_FOUND, SCIM_ADMIN_ERRORS.tokenNotFound);
    return { success: true };
  }

  async roleMapping(caller: OrgCaller) {
    this.ownerOnly(caller);
    return { mapping: shown(await this.roles.mapping(caller.tenantId)) };
  }

  /**
   * Replaces the mapping and recomputes every active SCIM member's role; refused whole (409,
   * `scimType: "mutability"`, audited) when it would leave the organisation without an owner.
   */
  async setRoleMapping(caller: OrgCaller, body: unknown) {
    this.ownerOnly(caller);
    const mapping = readMapping(body);
    const { tenantId } = caller;
    const actor = auditActor(caller);
    try {
      await this.ownerLock.holding(tenantId, async () => {
        const members = await this.users.allActive(tenantId);
        const keys = await this.roles.groupKeysOf(
          tenantId,
          members.map((member) => member.id),
        );
        const changes = await this.roles.plan(tenantId, actor, members, keys, mapping, 'role-mapping');
        const rows = [...mapping].map(([groupKey, { groupName, role }]): Insert => [
          ScimRoleMappingEntity,
          { tenantId, groupKey, groupName, role },
        ]);
        // The old mapping out and the new one in: one transaction.
        await this.writer.insertIfAll(
          [...rows, ...this.auditRows.of(scimEvents.roleMappingUpdated(tenantId, shown(mapping), actor))],
          [],
          [[DELETE_MAPPING, [tenantId]]],
        );
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

  private ownerOnly(caller: OrgCaller): void {
    if (caller.role !== 'owner') throw new ApiError(HttpStatus.FORBIDDEN, SCIM_ADMIN_ERRORS.notOwner);
  }
}

/** The org API's 409 of the last-owner guard: its `{error}` form, with SCIM's type alongside. */
export const LAST_OWNER_BODY = { error: SCIM_MESSAGES.lastOwner, scimType: 'mutability' };

function readMapping(body: unknown): RoleMapping {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(HttpStatus.BAD_REQUEST, SCIM_ADMIN_ERRORS.invalidMapping);
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length > MAX_MAPPED_GROUPS) throw new ApiError(HttpStatus.BAD_REQUEST, SCIM_ADMIN_ERRORS.invalidMapping);
  const mapping: RoleMapping = new Map();
  for (const [name, role] of entries) {
    const groupName = name.trim();
    if (!groupName || groupName.length > 255 || !TENANT_ROLES.includes(role as TenantRole))
      throw new ApiError(HttpStatus.BAD_REQUEST, SCIM_ADMIN_ERRORS.invalidMapping);
    mapping.set(groupName.toLowerCase(), { groupName, role: role as TenantRole });
  }
  return mapping;
}

const shown = (mapping: RoleMapping) =>
  Object.fromEntries([...mapping.values()].map(({ groupName, role }) => [groupName, role]));
