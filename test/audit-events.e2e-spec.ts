import { AuditEvent, toAuditEvent } from '../src/audit/audit-event';
import { AuditEventEntity, InvitationEntity } from '../src/database/entities';
import { sessionCookie } from './support/factories';
import { ISO_8601, UUID } from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

/**
 * Each state change of the routes stores one event with its change, and
 * a refused change stores none. Runs on SQLite, MariaDB and in Cognito mode.
 */
describe('audit events written by the spec routes', () => {
  const { t, factory, org } = useOrganisationSuite();
  let root: TestUser;
  let rootCookie: string;

  beforeEach(async () => {
    root = await factory.superAdmin();
    rootCookie = await sessionCookie(t, root);
  });

  /** The stored events about this target (by id, or by e-mail for an invitation), as the API shows them. */
  const eventsAbout = async (where: { targetId?: string; targetEmail?: string }): Promise<AuditEvent[]> =>
    (await t.dataSource.getRepository(AuditEventEntity).find({ where, order: { occurredAt: 'ASC', id: 'ASC' } })).map(
      toAuditEvent,
    );
  const ownerActor = () => ({ id: org.owner.id, email: org.owner.email });
  const rootActor = () => ({ id: root.id, email: root.email });
  const occurred = { id: expect.stringMatching(UUID), occurredAt: expect.stringMatching(ISO_8601) };

  describe('POST /api/admin/tenants', () => {
    it('tenant.created, with the super-admin as actor and the tenant as target', async () => {
      const res = await t.http
        .post('/api/admin/tenants')
        .set('Cookie', rootCookie)
        .send({ name: 'Globex', type: 'business' });
      expect(res.status).toBe(201);
      const id = res.body.tenant.id;
      expect(await eventsAbout({ targetId: id })).toEqual([
        {
          ...occurred,
          type: 'tenant.created',
          tenantId: id,
          actor: rootActor(),
          target: { type: 'tenant', id },
          data: { name: 'Globex', type: 'business', status: 'pending_owner' },
        },
      ]);
    });

    it('a refused creation (400) stores no event', async () => {
      const before = await t.dataSource.getRepository(AuditEventEntity).countBy({ type: 'tenant.created' });
      const res = await invalidRequest(() =>
        t.http.post('/api/admin/tenants').set('Cookie', rootCookie).send({ name: 'Globex', type: 'castle' }),
      );
      expect(res.status).toBe(400);
      expect(await t.dataSource.getRepository(AuditEventEntity).countBy({ type: 'tenant.created' })).toBe(before);
    });
  });

  describe('POST /api/org/invite', () => {
    it('invitation.created: the invitation is named by e-mail, never by its id (the token)', async () => {
      const email = `new-${Date.now()}@example.com`;
      const res = await t.http
        .post('/api/org/invite')
        .set('Cookie', org.ownerCookie)
        .send({ email: email.toUpperCase(), role: 'admin' });
      expect(res.status).toBe(200);
      const events = await eventsAbout({ targetEmail: email });
      expect(events).toEqual([
        {
          ...occurred,
          type: 'invitation.created',
          tenantId: org.tenant.id,
          actor: ownerActor(),
          target: { type: 'invitation', id: null, email },
          data: { role: 'admin', expiresAt: res.body.invitation.expiresAt },
        },
      ]);
      expect(JSON.stringify(events)).not.toContain(res.body.invitation.id);
    });

    it('a refused invitation (already a member, 400) stores no event', async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const res = await t.http
        .post('/api/org/invite')
        .set('Cookie', org.ownerCookie)
        .send({ email: member.email, role: 'member' });
      expect(res.status).toBe(400);
      expect(await eventsAbout({ targetEmail: member.email })).toEqual([]);
    });
  });

  describe('GET and POST /api/invitations/{token}', () => {
    const invitation = (overrides: Partial<InvitationEntity> = {}) =>
      factory.invitation({
        tenantId: org.tenant.id,
        email: `invitee-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
        ...overrides,
      });

    it('invitation.accepted, with no actor: the accept is public', async () => {
      const row = await invitation({ role: 'admin', invitedBy: org.owner.id });
      expect((await t.http.post(`/api/invitations/${row.id}`)).status).toBe(200);
      expect(await eventsAbout({ targetEmail: row.email })).toEqual([
        {
          ...occurred,
          type: 'invitation.accepted',
          tenantId: org.tenant.id,
          actor: null,
          target: { type: 'invitation', id: null, email: row.email },
          data: { role: 'admin', invitedBy: org.owner.id },
        },
      ]);
    });

    it('a refused accept (ALREADY_USED, EXPIRED) stores no event', async () => {
      const used = await invitation({ status: 'accepted' });
      const expired = await invitation({ expiresAt: new Date(Date.now() - 1_000) });
      expect((await t.http.post(`/api/invitations/${used.id}`)).body).toEqual({
        success: false,
        error: 'ALREADY_USED',
      });
      expect((await t.http.post(`/api/invitations/${expired.id}`)).body).toEqual({ success: false, error: 'EXPIRED' });
      expect(await eventsAbout({ targetEmail: used.email })).toEqual([]);
      expect(await eventsAbout({ targetEmail: expired.email })).toEqual([]);
    });

    it('invitation.expired when GET stores the expiry, once however often it is read', async () => {
      const row = await invitation({ expiresAt: new Date('2026-01-01T00:00:00.000Z') });
      for (let i = 0; i < 2; i++)
        expect((await t.http.get(`/api/invitations/${row.id}`)).body).toEqual({ valid: false, error: 'EXPIRED' });
      expect(await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: row.id })).toMatchObject({
        status: 'expired',
      });
      expect(await eventsAbout({ targetEmail: row.email })).toEqual([
        {
          ...occurred,
          type: 'invitation.expired',
          tenantId: org.tenant.id,
          actor: null,
          target: { type: 'invitation', id: null, email: row.email },
          data: { role: 'member', expiresAt: '2026-01-01T00:00:00.000Z' },
        },
      ]);
    });
  });

  describe('DELETE /api/org/users/{id}', () => {
    it('member.removed, recorded after the identity store removed the member, with the role they had', async () => {
      const member = await factory.member(org.tenant.id, { role: 'admin' });
      expect((await t.http.delete(`/api/org/users/${member.id}`).set('Cookie', org.ownerCookie)).status).toBe(200);
      expect(await eventsAbout({ targetId: member.id })).toEqual([
        {
          ...occurred,
          type: 'member.removed',
          tenantId: org.tenant.id,
          actor: ownerActor(),
          target: { type: 'user', id: member.id, email: member.email },
          data: { role: 'admin' },
        },
      ]);
    });

    it('a refused removal (admins cannot remove owners, 403) stores no event', async () => {
      const admin = await factory.member(org.tenant.id, { role: 'admin' });
      const res = await t.http.delete(`/api/org/users/${org.owner.id}`).set('Cookie', await sessionCookie(t, admin));
      expect(res.status).toBe(403);
      expect(await eventsAbout({ targetId: org.owner.id })).toEqual([]);
    });
  });

  describe('POST /api/admin/super-admins', () => {
    it("super_admin.granted, with no tenant: the role is the platform's", async () => {
      const user = await factory.member(org.tenant.id, { role: 'member' });
      expect(
        (await t.http.post('/api/admin/super-admins').set('Cookie', rootCookie).send({ email: user.email })).status,
      ).toBe(200);
      expect(await eventsAbout({ targetId: user.id })).toEqual([
        {
          ...occurred,
          type: 'super_admin.granted',
          tenantId: null,
          actor: rootActor(),
          target: { type: 'user', id: user.id, email: user.email },
          data: { platformRole: 'super_admin' },
        },
      ]);
    });

    it('a refused grant (already a super admin, 400) stores no event', async () => {
      const other = await factory.superAdmin();
      expect(
        (await t.http.post('/api/admin/super-admins').set('Cookie', rootCookie).send({ email: other.email })).status,
      ).toBe(400);
      expect(await eventsAbout({ targetId: other.id })).toEqual([]);
    });
  });

  describe('DELETE /api/admin/users/{id}', () => {
    it("user.deleted, filed under the user's tenant", async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      expect((await t.http.delete(`/api/admin/users/${member.id}`).set('Cookie', rootCookie)).status).toBe(200);
      expect(await eventsAbout({ targetId: member.id })).toEqual([
        {
          ...occurred,
          type: 'user.deleted',
          tenantId: org.tenant.id,
          actor: rootActor(),
          target: { type: 'user', id: member.id, email: member.email },
          data: { platformRole: null, role: 'member' },
        },
      ]);
    });

    it('deleting an unknown user (404) stores no event', async () => {
      expect((await t.http.delete('/api/admin/users/nobody-here').set('Cookie', rootCookie)).status).toBe(404);
      expect(await eventsAbout({ targetId: 'nobody-here' })).toEqual([]);
    });
  });

  describe('DELETE /api/org/invitations/{id}', () => {
    it("invitation.revoked, with the status it had, in the revocation's transaction; revoking again stores nothing", async () => {
      const row = await factory.invitation({
        tenantId: org.tenant.id,
        email: `revoked-${Date.now()}@example.com`,
        role: 'member',
      });
      expect((await t.http.delete(`/api/org/invitations/${row.id}`).set('Cookie', org.ownerCookie)).status).toBe(200);
      expect((await t.http.delete(`/api/org/invitations/${row.id}`).set('Cookie', org.ownerCookie)).status).toBe(200);
      const events = await eventsAbout({ targetEmail: row.email });
      expect(events).toEqual([
        {
          ...occurred,
          type: 'invitation.revoked',
          tenantId: org.tenant.id,
          actor: ownerActor(),
          target: { type: 'invitation', id: null, email: row.email },
          data: { role: 'member', statusBefore: 'pending' },
        },
      ]);
      expect(JSON.stringify(events)).not.toContain(row.id);
    });

    it('a refused revocation (already accepted, 400) stores no event', async () => {
      const row = await factory.invitation({
        tenantId: org.tenant.id,
        email: `accepted-${Date.now()}@example.com`,
        status: 'accepted',
      });
      expect((await t.http.delete(`/api/org/invitations/${row.id}`).set('Cookie', org.ownerCookie)).status).toBe(400);
      expect(await eventsAbout({ targetEmail: row.email })).toEqual([]);
    });
  });

  describe('POST /api/org/invitations/{id}/resend', () => {
    it('invitation.resent for the new invitation, and no invitation.created', async () => {
      const row = await factory.invitation({
        tenantId: org.tenant.id,
        email: `resent-${Date.now()}@example.com`,
        role: 'admin',
      });
      const res = await t.http.post(`/api/org/invitations/${row.id}/resend`).set('Cookie', org.ownerCookie);
      expect(res.status).toBe(200);
      const events = await eventsAbout({ targetEmail: row.email });
      expect(events).toEqual([
        {
          ...occurred,
          type: 'invitation.resent',
          tenantId: org.tenant.id,
          actor: ownerActor(),
          target: { type: 'invitation', id: null, email: row.email },
          data: { role: 'admin', expiresAt: res.body.invitation.expiresAt },
        },
      ]);
      expect(JSON.stringify(events)).not.toContain(res.body.invitation.id);
    });
  });

  describe('PATCH /api/org/members/{id}', () => {
    it('member.role_changed, with the role before and after', async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const res = await t.http
        .patch(`/api/org/members/${member.id}`)
        .set('Cookie', org.ownerCookie)
        .send({ role: 'admin' });
      expect(res.status).toBe(200);
      expect(await eventsAbout({ targetId: member.id })).toEqual([
        {
          ...occurred,
          type: 'member.role_changed',
          tenantId: org.tenant.id,
          actor: ownerActor(),
          target: { type: 'user', id: member.id, email: member.email },
          data: { roleBefore: 'member', roleAfter: 'admin' },
        },
      ]);
    });

    it('a refused change (own role, 400) stores no event', async () => {
      const res = await t.http
        .patch(`/api/org/members/${org.owner.id}`)
        .set('Cookie', org.ownerCookie)
        .send({ role: 'admin' });
      expect(res.status).toBe(400);
      expect(await eventsAbout({ targetId: org.owner.id })).toEqual([]);
    });
  });
});
