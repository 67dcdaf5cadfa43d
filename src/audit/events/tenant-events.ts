/** The events of a tenant's life: created, updated, suspended, reactivated, deleted, activated by its first owner. */

import { TenantEntity } from '../../database/entities';
import { AuditEventType } from '../audit-event-types';
import { AuditActor, NewAuditEvent } from '../audit-event-shape';

/** An event about a tenant, filed under it. */
const aboutTenant = (
  type: AuditEventType,
  tenant: TenantEntity,
  actor: AuditActor | null,
  data: Record<string, unknown>,
): NewAuditEvent => ({
  type,
  tenantId: tenant.id,
  actor,
  target: { type: 'tenant', id: tenant.id },
  data,
});

/** What a tenant's update changed: each field's value before and after. */
export type TenantChanges = Partial<Record<'name' | 'type', { before: string | null; after: string | null }>>;

export const tenantEvents = {
  tenantCreated: (tenant: TenantEntity, actor: AuditActor | null) =>
    aboutTenant('tenant.created', tenant, actor, { name: tenant.name, type: tenant.type, status: tenant.status }),
  /** The actor is null when the operator CLI made the change, as for every tenant event below. */
  tenantUpdated: (tenant: TenantEntity, changes: TenantChanges, actor: AuditActor | null) =>
    aboutTenant('tenant.updated', tenant, actor, changes),
  tenantSuspended: (tenant: TenantEntity, reason: string | null, actor: AuditActor | null) =>
    aboutTenant('tenant.suspended', tenant, actor, { reason, statusBefore: tenant.status }),
  tenantReactivated: (tenant: TenantEntity, status: string, actor: AuditActor | null) =>
    aboutTenant('tenant.reactivated', tenant, actor, { status }),
  tenantDeleted: (
    tenant: TenantEntity,
    counts: { membersDetached: number; invitationsRevoked: number },
    actor: AuditActor | null,
  ) => aboutTenant('tenant.deleted', tenant, actor, { name: tenant.name, ...counts }),
  /** A tenant's first owner joined: the tenant leaves pending_owner. */
  tenantActivated: (tenantId: string, owner: AuditActor): NewAuditEvent => ({
    type: 'tenant.activated',
    tenantId,
    actor: owner,
    target: { type: 'tenant', id: tenantId },
    data: { statusBefore: 'pending_owner', status: 'active' },
  }),
};
