import { InvitationRoleEntity, MemberRoleEntity, OrgRoleEntity } from '../src/database/entities';
import { eventually } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import { newInviter } from './support/inviting';
import { defineRole, eventsOf, heldRoles, invitationRoles, setRoles } from './support/roles';
import { REMOVE_MEMBER_ERRORS } from './support/spec-bodies';
import { useOrganisationSuite, useTestApp, useTwoInstances } from './support/suites';
import { TestApp } from './support/test-app';
import { TEST_WEBHOOK_SECRET, WebhookReceiver } from './support/webhook-receiver';

const QUOTA_REFUSAL = { error: 'Only owner or admin can manage invitations' };

/** A recruiter (member + invitations:create) of a fresh organisation on `app`, and its owner. */
async function recruiterOn(app: TestApp) {
  const inviter = await newInviter(app);
  const recruiter = await factories(app).member(inviter.tenant.id, { role: 'member' });
  expect((await defineRole(app, inviter.cookie, 'recruiter', ['invitations:create'])).status).toBe(201);
  expect((await setRoles(app, inviter.cookie, recruiter.id, ['recruiter'])).status).toBe(200);
  return { ...inviter, recruiter, recruiterCookie: await sessionCookie(app, recruiter) };
}

describe('custom roles across a fleet: the guard reads the store, so a change holds from the next request', () => {
  const { first, second } = useTwoInstances();

  it('a role edited on one instance stops opening the route on the other at the next request', async () => {
    const org = await recruiterOn(first);
    expect((await second.http.get('/api/org/invite/quota').set('Cookie', org.recruiterCookie)).status).toBe(200);
    const edit = await first.http
      .patch('/api/org/roles/recruiter')
      .set('Cookie', org.cookie)
      .send({ permissions: ['audit:read'] });
    expect(edit.status).toBe(200);
    const res = await second.http.get('/api/org/invite/quota').set('Cookie', org.recruiterCookie);
    expect([res.status, res.body]).toEqual([403, QUOTA_REFUSAL]);
    expect((await second.http.get('/api/org/audit-events').set('Cookie', org.recruiterCookie)).status).toBe(200);
  });

  it('a role taken away on one instance, and a role deleted, stop working on the other at the next request', async () => {
    const org = await recruiterOn(first);
    expect((await setRoles(first, org.cookie, org.recruiter.id, [])).status).toBe(200);
    const res = await second.http.get('/api/org/invite/quota').set('Cookie', org.recruiterCookie);
    expect([res.status, res.body]).toEqual([403, QUOTA_REFUSAL]);
    expect((await setRoles(second, org.cookie, org.recruiter.id, ['recruiter'])).status).toBe(200);
    expect((await first.http.get('/api/org/invite/quota').set('Cookie', org.recruiterCookie)).status).toBe(200);
    expect(
      (await second.http.delete('/api/org/roles/recruiter?reassignTo=recruiter').set('Cookie', org.cookie)).status,
    ).toBe(422);
    await defineRole(second, org.cookie, 'auditor', ['audit:read']);
    expect(
      (await second.http.delete('/api/org/roles/recruiter?reassignTo=auditor').set('Cookie', org.cookie)).status,
    ).toBe(200);
    const after = await first.http.get('/api/org/invite/quota').set('Cookie', org.recruiterCookie);
    expect([after.status, after.body]).toEqual([403, QUOTA_REFUSAL]);
    expect((await first.http.get('/api/org/audit-events').set('Cookie', org.recruiterCookie)).status).toBe(200);
  });
});

describe('a person who is removed loses the organisation’s custom roles', () => {
  const { t, factory, org } = useOrganisationSuite();

  beforeEach(async () => {
    expect((await defineRole(t, org.ownerCookie, 'recruiter', ['invitations:create'])).status).toBe(201);
  });

  it('DELETE /api/org/users/{id}: the spec’s answer, the roles gone, member.removed naming them; the old token refused', async () => {
    const recruiter = await factory.member(org.tenant.id, { role: 'member' });
    const cookie = await sessionCookie(t, recruiter);
    await setRoles(t, org.ownerCookie, recruiter.id, ['recruiter']);
    const res = await t.http.delete(`/api/org/users/${recruiter.id}`).set('Cookie', org.ownerCookie);
    expect([res.status, res.body]).toEqual([200, { success: true }]);
    expect(await heldRoles(t, org.tenant.id)).toEqual([]);
    const [removed] = await eventsOf(t, org.tenant.id, 'member.removed');
    expect(removed.data).toEqual({ role: 'member', roles: ['recruiter'] });
    const quota = await t.http.get('/api/org/invite/quota').set('Cookie', cookie);
    expect([quota.status, quota.body]).toEqual([403, QUOTA_REFUSAL]);
  });

  it('DELETE /api/org/users/{id} of a member without roles: member.removed as before', async () => {
    const member = await factory.member(org.tenant.id, { role: 'member' });
    await t.http.delete(`/api/org/users/${member.id}`).set('Cookie', org.ownerCookie);
    const [removed] = await eventsOf(t, org.tenant.id, 'member.removed');
    expect(removed.data).toEqual({ role: 'member' });
  });

  it('an identity store that fails the removal: the spec’s 500, the person still a member without the roles', async () => {
    const recruiter = await factory.member(org.tenant.id, { role: 'member' });
    await setRoles(t, org.ownerCookie, recruiter.id, ['recruiter']);
    jest.spyOn(t.identity, 'removeFromTenant').mockRejectedValueOnce(new Error('store down'));
    const res = await t.http.delete(`/api/org/users/${recruiter.id}`).set('Cookie', org.ownerCookie);
    expect([res.status, res.body]).toEqual([500, REMOVE_MEMBER_ERRORS.removeFailed]);
    expect(await t.identity.findById(recruiter.id)).toMatchObject({ tenantId: org.tenant.id });
    expect(await heldRoles(t, org.tenant.id)).toEqual([]);
  });

  it('DELETE /api/admin/users/{id}: the account and its roles gone, user.deleted naming them', async () => {
    const recruiter = await factory.member(org.tenant.id, { role: 'member' });
    await setRoles(t, org.ownerCookie, recruiter.id, ['recruiter']);
    const root = await sessionCookie(t, await factory.superAdmin());
    const res = await t.http.delete(`/api/admin/users/${recruiter.id}`).set('Cookie', root);
    expect([res.status, res.body]).toEqual([200, { success: true, message: 'User deleted' }]);
    expect(await heldRoles(t, org.tenant.id)).toEqual([]);
    const [deleted] = await eventsOf(t, org.tenant.id, 'user.deleted');
    expect(deleted.data).toMatchObject({ role: 'member', roles: ['recruiter'] });
  });

  it('a tenant’s deletion takes every custom role away: the holdings, the roles, what invitations carried', async () => {
    const holders = await Promise.all([1, 2, 3].map(() => factory.member(org.tenant.id, { role: 'member' })));
    for (const holder of holders) await setRoles(t, org.ownerCookie, holder.id, ['recruiter']);
    const invitation = await t.http
      .post('/api/org/invite')
      .set('Cookie', org.ownerCookie)
      .send({ email: 'later@example.com', role: 'member', roles: ['recruiter'] });
    const other = await newInviter(t);
    await defineRole(t, other.cookie, 'recruiter', ['invitations:create']);
    const root = await sessionCookie(t, await factory.superAdmin());
    expect((await t.http.delete(`/api/admin/tenants/${org.tenant.id}`).set('Cookie', root)).status).toBe(200);
    expect(await t.dataSource.getRepository(MemberRoleEntity).countBy({ tenantId: org.tenant.id })).toBe(0);
    expect(await t.dataSource.getRepository(OrgRoleEntity).countBy({ tenantId: org.tenant.id })).toBe(0);
    expect(await t.dataSource.getRepository(InvitationRoleEntity).countBy({ tenantId: org.tenant.id })).toBe(0);
    expect(await invitationRoles(t, invitation.body.invitation.id)).toEqual([]);
    expect(await t.dataSource.getRepository(OrgRoleEntity).countBy({ tenantId: other.tenant.id })).toBe(1);
  });
});

describe('the role events, through the audit trail and webhooks', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver.stop());
  const { t, factory } = useTestApp(() => ({
    env: { WEBHOOK_URLS: receiver.url, WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, WEBHOOK_POLL_INTERVAL_MS: '50' },
  }));

  it('role.created|updated|deleted, member.roles_changed and permissions.catalogue_changed are each delivered once', async () => {
    const org = await newInviter(t);
    const member = await factory.member(org.tenant.id, { role: 'member' });
    const root = await sessionCookie(t, await factory.superAdmin());
    await t.http
      .put('/api/admin/permissions')
      .set('Cookie', root)
      .send({ permissions: [{ key: 'reports:export' }] });
    await defineRole(t, org.cookie, 'analyst', ['reports:export']);
    await t.http.patch('/api/org/roles/analyst').set('Cookie', org.cookie).send({ name: 'Analyst' });
    await setRoles(t, org.cookie, member.id, ['analyst']);
    await setRoles(t, org.cookie, member.id, []);
    await t.http.delete('/api/org/roles/analyst').set('Cookie', org.cookie);
    const types = ['role.created', 'role.updated', 'member.roles_changed', 'role.deleted'];
    const events = [
      ...(await eventsOf(t, null, 'permissions.catalogue_changed')),
      ...(await eventsOf(t, org.tenant.id, ...types)),
    ];
    expect(events.map((event) => event.type)).toEqual([
      'permissions.catalogue_changed',
      'role.created',
      'role.updated',
      'member.roles_changed',
      'member.roles_changed',
      'role.deleted',
    ]);
    await eventually(() => expect(receiver.acknowledged().length).toBeGreaterThanOrEqual(events.length));
    for (const event of events) {
      const hooks = receiver.withId(event.id);
      expect(hooks.map((hook) => hook.payload)).toEqual([
        { type: event.type, timestamp: event.occurredAt, data: event },
      ]);
    }
  });
});
