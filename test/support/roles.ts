import { IsNull } from 'typeorm';
import { toAuditEvent } from '../../src/audit/audit-event';
import { AuditEventEntity, InvitationRoleEntity, MemberRoleEntity, OrgRoleEntity } from '../../src/database/entities';
import { TestApp } from './test-app';

/** POST /api/org/roles as `cookie`: the answer. */
export const defineRole = (t: TestApp, cookie: string, key: string, permissions: string[], name = key) =>
  t.http.post('/api/org/roles').set('Cookie', cookie).send({ key, name, permissions });

/** PUT /api/org/members/{id}/roles as `cookie`: the answer. */
export const setRoles = (t: TestApp, cookie: string, userId: string, roles: string[]) =>
  t.http
    .put(`/api/org/members/${encodeURIComponent(userId)}/roles`)
    .set('Cookie', cookie)
    .send({ roles });

/** The stored custom roles of the tenant's members, `user:role`, sorted. */
export async function heldRoles(t: TestApp, tenantId: string): Promise<string[]> {
  const rows = await t.dataSource.getRepository(MemberRoleEntity).findBy({ tenantId });
  return rows.map((row) => `${row.userId}:${row.roleKey}`).sort();
}

/** The stored keys of the tenant's custom roles, sorted. */
export async function roleKeys(t: TestApp, tenantId: string): Promise<string[]> {
  return (await t.dataSource.getRepository(OrgRoleEntity).findBy({ tenantId })).map((row) => row.key).sort();
}

/** The stored custom roles of an invitation, sorted. */
export async function invitationRoles(t: TestApp, invitationId: string): Promise<string[]> {
  const rows = await t.dataSource.getRepository(InvitationRoleEntity).findBy({ invitationId });
  return rows.map((row) => row.roleKey).sort();
}

/** The tenant's audit events of these types, oldest first, as the API shows them. */
export async function eventsOf(t: TestApp, tenantId: string | null, ...types: string[]) {
  const rows = await t.dataSource
    .getRepository(AuditEventEntity)
    .find({ where: { tenantId: tenantId ?? IsNull() }, order: { occurredAt: 'ASC', id: 'ASC' } });
  return rows.map(toAuditEvent).filter((event) => !types.length || types.includes(event.type));
}
