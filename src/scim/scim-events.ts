import { AuditActor, NewAuditEvent } from '../audit/audit-event';

/** SCIM's actor: the token, by id (docs/scim.md). */
export const tokenActor = (tokenId: string): AuditActor => ({ id: tokenId, email: null });

const aboutMember = (
  type: NewAuditEvent['type'],
  tenantId: string,
  tokenId: string,
  member: { id: string; email: string },
  data: Record<string, unknown>,
): NewAuditEvent => ({
  type,
  tenantId,
  actor: tokenActor(tokenId),
  target: { type: 'user', id: member.id, email: member.email },
  data: { via: 'scim', ...data },
});

const aboutGroup = (
  type: NewAuditEvent['type'],
  tenantId: string,
  tokenId: string,
  group: { id: string; displayName: string },
  data: Record<string, unknown> = {},
): NewAuditEvent => ({
  type,
  tenantId,
  actor: tokenActor(tokenId),
  target: { type: 'scim_group', id: group.id },
  data: { displayName: group.displayName, ...data },
});

type Member = { id: string; email: string };
/** The role a membership had, and its custom roles when there were any. */
const withRoles = (role: string | null, roles: string[]) => ({ role, ...(roles.length && { roles }) });

/** One builder per SCIM change, so that every route records the same shape. */
export const scimEvents = {
  tokenCreated: (tenantId: string, tokenId: string, owner: AuditActor): NewAuditEvent => ({
    type: 'scim.token_created',
    tenantId,
    actor: owner,
    target: { type: 'scim_token', id: tokenId },
    data: {},
  }),
  tokenRevoked: (tenantId: string, tokenId: string, owner: AuditActor): NewAuditEvent => ({
    type: 'scim.token_revoked',
    tenantId,
    actor: owner,
    target: { type: 'scim_token', id: tokenId },
    data: {},
  }),
  roleMappingUpdated: (tenantId: string, mapping: Record<string, unknown>, owner: AuditActor): NewAuditEvent => ({
    type: 'scim.role_mapping_updated',
    tenantId,
    actor: owner,
    target: { type: 'scim_role_mapping', id: null },
    data: { mapping },
  }),
  memberJoined: (tenantId: string, tokenId: string, member: { id: string; email: string }, role: string) =>
    aboutMember('member.joined', tenantId, tokenId, member, { role }),
  memberUpdated: (tenantId: string, tokenId: string, member: { id: string; email: string }, changes: object) =>
    aboutMember('member.updated', tenantId, tokenId, member, { changes }),
  /** `roles`: the custom roles that went with the membership, when there were any. */
  memberDeactivated: (tenantId: string, tokenId: string, member: Member, role: string | null, roles: string[] = []) =>
    aboutMember('member.deactivated', tenantId, tokenId, member, withRoles(role, roles)),
  memberReactivated: (tenantId: string, tokenId: string, member: { id: string; email: string }, role: string) =>
    aboutMember('member.reactivated', tenantId, tokenId, member, { role }),
  memberRemoved: (tenantId: string, tokenId: string, member: Member, role: string | null, roles: string[] = []) =>
    aboutMember('member.removed', tenantId, tokenId, member, withRoles(role, roles)),
  groupCreated: (tenantId: string, tokenId: string, group: { id: string; displayName: string }, members: number) =>
    aboutGroup('scim.group_created', tenantId, tokenId, group, { members }),
  groupUpdated: (tenantId: string, tokenId: string, group: { id: string; displayName: string }, changes: object) =>
    aboutGroup('scim.group_updated', tenantId, tokenId, group, { changes }),
  groupDeleted: (tenantId: string, tokenId: string, group: { id: string; displayName: string }) =>
    aboutGroup('scim.group_deleted', tenantId, tokenId, group),
  /** The last-owner guard refused a change: who would have lost the role, and by what. */
  changeRefused: (
    tenantId: string,
    actor: AuditActor,
    member: { id: string; email: string },
    attempted: string,
  ): NewAuditEvent => ({
    type: 'scim.change_refused',
    tenantId,
    actor,
    target: { type: 'user', id: member.id, email: member.email },
    data: { reason: 'last_owner', attempted },
  }),
};
