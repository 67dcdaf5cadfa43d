/** The events of custom roles and permissions (docs/roles.md), and how custom roles show in an event's data. */

import { AuditEventType } from '../audit-event-types';
import { AuditActor, NewAuditEvent } from '../audit-event-shape';

/** A custom role as its events show it. */
export interface AuditedRole {
  key: string;
  name: string;
  description: string | null;
  permissions: string[];
}

/** The role's fields as its events show them, whatever else the value carries. */
const audited = ({ key, name, description, permissions }: AuditedRole): AuditedRole => ({
  key,
  name,
  description,
  permissions,
});

/** An event about an organisation's custom role, filed under it. */
const aboutRole = (
  type: AuditEventType,
  tenantId: string,
  key: string,
  actor: AuditActor,
  data: Record<string, unknown>,
): NewAuditEvent => ({ type, tenantId, actor, target: { type: 'role', id: key }, data });

/** Custom roles in an event's data: named only when there are some, so that other events keep their shape. */
export const withRoles = (roles: string[]) => (roles.length > 0 ? { roles } : {});

/** The events of custom roles and permissions (docs/roles.md). */
export const roleEvents = {
  roleCreated: (tenantId: string, role: AuditedRole, actor: AuditActor) =>
    aboutRole('role.created', tenantId, role.key, actor, { ...audited(role) }),
  /** `reason`: why a role changed without an edit (`permission_removed`: the catalogue lost it). */
  roleUpdated: (
    tenantId: string,
    before: AuditedRole,
    after: AuditedRole,
    actor: AuditActor,
    reason?: 'permission_removed',
  ) =>
    aboutRole('role.updated', tenantId, before.key, actor, {
      before: audited(before),
      after: audited(after),
      ...(reason && { reason }),
    }),
  /** `members`: how many held it; `reassignedTo`: the role they hold instead. */
  roleDeleted: (tenantId: string, role: AuditedRole, members: number, reassignedTo: string | null, actor: AuditActor) =>
    aboutRole('role.deleted', tenantId, role.key, actor, { ...audited(role), members, reassignedTo }),
  /** A member's custom roles, before and after; `reason` when no one set them (`role_deleted`: a reassignment). */
  memberRolesChanged: (
    member: { id: string; email: string | null },
    tenantId: string,
    before: string[],
    after: string[],
    actor: AuditActor,
    reason?: 'role_deleted',
  ): NewAuditEvent => ({
    type: 'member.roles_changed',
    tenantId,
    actor,
    target: { type: 'user', id: member.id, email: member.email },
    data: { before, after, ...(reason && { reason }) },
  }),
  /** The product's catalogue changed: keys added and removed, descriptions changed, roles that lost a removed key. */
  catalogueChanged: (
    change: { added: string[]; removed: string[]; described: string[]; rolesChanged: number },
    actor: AuditActor,
  ): NewAuditEvent => ({
    type: 'permissions.catalogue_changed',
    tenantId: null,
    actor,
    target: { type: 'permissions', id: null },
    data: change,
  }),
};
