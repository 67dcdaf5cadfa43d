import { AuditRetention } from '../src/audit/audit-retention';
import { emailKey } from '../src/common/email-comparison';
import { AuditEventEntity, JoinRequestEntity, MembershipRemovalEntity } from '../src/database/entities';
import { RemovalReason } from '../src/database/entities/membership-removal.entity';
import { refused, useDomainsSuite } from './support/domains';
import { sessionCookie } from './support/factories';
import { oktaUser, patchOp, scimClient, scimToken } from './support/scim';
import { TestUser } from './support/test-identity';

const TEST_MODE_KEY = 'membership-removals-test-mode-key';
const RETENTION_DAYS = 30;
/** The events that told, before removals were kept as facts, who an organisation took out. */
const REMOVAL_EVENTS = ['member.removed', 'member.deactivated', 'user.deleted'];

/**
 * Removals kept as facts (docs/domains.md): that an organisation took a person out outlives the
 * audit trail's retention. The domain join, a join request and the joinable list refuse them after
 * the purge as before it, until the organisation invites their address again or SCIM brings them back.
 */
describe('removals kept as facts, whatever the audit trail keeps', () => {
  const { t, factory, org, verified, person, joinOrg, expectJoinRefused } = useDomainsSuite({
    TEST_MODE: 'true',
    TEST_MODE_KEY,
    AUDIT_RETENTION_DAYS: String(RETENTION_DAYS),
  });

  const removals = () => t.dataSource.getRepository(MembershipRemovalEntity).findBy({ tenantId: org.tenant.id });
  /** The stored fact of this person's removal, as every path that removes writes it. */
  const fact = (user: TestUser, reason: RemovalReason) => ({
    tenantId: org.tenant.id,
    userId: user.id,
    emailKey: emailKey(user.email),
    reason,
    removedAt: expect.any(Date),
  });
  const joinable = (cookie: string) => t.http.get('/api/me/joinable-organisations').set('Cookie', cookie);
  const expectJoinable = async (cookie: string, organisations: object[]) => {
    const res = await joinable(cookie);
    expect([res.status, res.body]).toEqual([200, { organisations }]);
  };
  const listed = (name: string, joinMode: string) => ({
    tenantId: org.tenant.id,
    name: org.tenant.name,
    domain: name,
    joinMode,
  });
  const setJoinMode = async (name: string, joinMode: string) =>
    expect(
      (await t.http.patch(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie).send({ joinMode })).status,
    ).toBe(200);
  /** The clock past the retention, and the purge run: the removal's audit events are gone. */
  const purgeTheirEvents = async (userId: string) => {
    const moved = await t.http
      .post('/api/test/clock')
      .set('X-Test-Mode-Key', TEST_MODE_KEY)
      .send({ advanceSeconds: (RETENTION_DAYS + 1) * 24 * 3600 });
    expect(moved.status).toBe(200);
    expect(await t.app.get(AuditRetention).purge()).toBeGreaterThan(0);
    const left = await t.dataSource.getRepository(AuditEventEntity).findBy({ targetId: userId });
    expect(left.filter((event) => REMOVAL_EVENTS.includes(event.type))).toEqual([]);
  };
  /** A person at the domain whom SCIM provisioned as a member: the SCIM client and their resource's id. */
  const provisioned = async (name: string) => {
    const { user, cookie } = await person(name);
    const scim = scimClient(t.http, (await scimToken(t, org.ownerCookie)).secret);
    const created = await scim.post('/Users', oktaUser(user.email));
    expect(created.status).toBe(201);
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
    return { user, cookie, scim, id: JSON.parse(created.text).id as string };
  };
  const setActive = async (scim: ReturnType<typeof scimClient>, id: string, value: boolean) => {
    const res = await scim.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'active', value }));
    expect([res.status, JSON.parse(res.text).active]).toEqual([200, value]);
  };
  afterEach(async () => {
    await t.http.post('/api/test/clock').set('X-Test-Mode-Key', TEST_MODE_KEY).send({ reset: true });
  });

  it('removed by the organisation: refused after the purge by the list, the join and a request, until invited again', async () => {
    const name = await verified('auto');
    const { user, cookie } = await person(name);
    expect((await joinOrg(org.tenant.id, cookie)).status).toBe(200);
    expect((await t.http.delete(`/api/org/users/${user.id}`).set('Cookie', org.ownerCookie)).status).toBe(200);
    expect(await removals()).toEqual([fact(user, 'removed')]);

    await purgeTheirEvents(user.id);
    await expectJoinable(cookie, []);
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
    await setJoinMode(name, 'request');
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
    expect(await removals()).toEqual([fact(user, 'removed')]);

    // A new invitation of their address outweighs the removal, which stays as it was.
    const invited = await t.http
      .post('/api/org/invite')
      .set('Cookie', org.ownerCookie)
      .send({ email: user.email, role: 'member' });
    expect(invited.status).toBe(200);
    await expectJoinable(cookie, [listed(name, 'request')]);
    const asked = await joinOrg(org.tenant.id, cookie);
    expect([asked.status, asked.body]).toEqual([
      202,
      { success: true, request: { id: expect.any(String), status: 'pending' } },
    ]);
    await setJoinMode(name, 'auto');
    const joined = await joinOrg(org.tenant.id, cookie);
    expect([joined.status, joined.body]).toEqual([
      200,
      { success: true, tenantId: org.tenant.id, role: 'member', userId: user.id },
    ]);
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
    expect(await removals()).toEqual([fact(user, 'removed')]);
  });

  it('deactivated by SCIM: refused after the purge until SCIM reactivates them, which clears the fact', async () => {
    const name = await verified('auto');
    const { user, cookie, scim, id } = await provisioned(name);
    await setActive(scim, id, false);
    expect((await t.identity.findById(user.id))?.tenantId ?? null).toBeNull();
    expect(await removals()).toEqual([fact(user, 'scim_deactivated')]);

    await purgeTheirEvents(user.id);
    await expectJoinable(cookie, []);
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
    await setJoinMode(name, 'request');
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
    expect(await removals()).toEqual([fact(user, 'scim_deactivated')]);

    await setActive(scim, id, true);
    expect(await removals()).toEqual([]);
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
    // A member now: offered no organisation, their own included.
    await expectJoinable(cookie, []);
  });

  it('deleted by SCIM: a fact of its own, kept after the purge; SCIM provisioning them again clears it', async () => {
    const name = await verified('auto');
    const { user, cookie, scim, id } = await provisioned(name);
    expect((await scim.delete(`/Users/${id}`)).status).toBe(204);
    expect(await removals()).toEqual([fact(user, 'scim_deleted')]);

    await purgeTheirEvents(user.id);
    await expectJoinable(cookie, []);
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
    await setJoinMode(name, 'request');
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));

    expect((await scim.post('/Users', oktaUser(user.email))).status).toBe(201);
    expect(await removals()).toEqual([]);
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
  });

  it('an account an operator deleted after the person asked: the approval is refused after the purge', async () => {
    const name = await verified('request');
    const { user, cookie } = await person(name);
    const asked = await joinOrg(org.tenant.id, cookie);
    expect(asked.status).toBe(202);
    const rootCookie = await sessionCookie(t, await factory.superAdmin());
    expect((await t.http.delete(`/api/admin/users/${user.id}`).set('Cookie', rootCookie)).status).toBe(200);
    expect(await removals()).toEqual([fact(user, 'account_deleted')]);

    await purgeTheirEvents(user.id);
    const approved = await t.http
      .post(`/api/org/join-requests/${asked.body.request.id}/approve`)
      .set('Cookie', org.ownerCookie);
    expect([approved.status, approved.body]).toEqual([409, refused('ACCOUNT_DELETED')]);
    expect(await t.dataSource.getRepository(JoinRequestEntity).findOneBy({ id: asked.body.request.id })).toMatchObject({
      status: 'rejected',
    });
    expect(await t.identity.findById(user.id)).toBeNull();
    expect(await removals()).toEqual([fact(user, 'account_deleted')]);
  });
});
