import { AuditRetention } from '../src/audit/audit-retention';
import { AuditEventEntity, MembershipRemovalEntity } from '../src/database/entities';
import { refused, useDomainsSuite } from './support/domains';
import { oktaUser, patchOp, scimClient, scimToken } from './support/scim';

const TEST_MODE_KEY = 'membership-removals-test-mode-key';
const RETENTION_DAYS = 30;

/**
 * Removals kept as facts (docs/domains.md): that an organisation took a person out outlives the
 * audit trail's retention. The domain join, a join request and the joinable list refuse them after
 * the purge as before it, until the organisation invites their address again or SCIM brings them back.
 */
describe('removals kept as facts, whatever the audit trail keeps', () => {
  const { t, org, verified, person, joinOrg, expectJoinRefused } = useDomainsSuite({
    TEST_MODE: 'true',
    TEST_MODE_KEY,
    AUDIT_RETENTION_DAYS: String(RETENTION_DAYS),
  });

  const removals = () => t.dataSource.getRepository(MembershipRemovalEntity).findBy({ tenantId: org.tenant.id });
  const joinable = async (cookie: string) =>
    (await t.http.get('/api/me/joinable-organisations').set('Cookie', cookie)).body.organisations.map(
      (found: { tenantId: string }) => found.tenantId,
    );
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
    expect(left.filter((event) => ['member.removed', 'member.deactivated'].includes(event.type))).toEqual([]);
  };
  afterEach(async () => {
    await t.http.post('/api/test/clock').set('X-Test-Mode-Key', TEST_MODE_KEY).send({ reset: true });
  });

  it('removed by the organisation: refused after the purge by the list, the join and a request, until invited again', async () => {
    const name = await verified('auto');
    const { user, cookie } = await person(name);
    expect((await joinOrg(org.tenant.id, cookie)).status).toBe(200);
    expect((await t.http.delete(`/api/org/users/${user.id}`).set('Cookie', org.ownerCookie)).status).toBe(200);
    expect(await removals()).toEqual([
      expect.objectContaining({ userId: user.id, reason: 'removed', removedAt: expect.any(Date) }),
    ]);

    await purgeTheirEvents(user.id);
    expect(await joinable(cookie)).not.toContain(org.tenant.id);
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
    await setJoinMode(name, 'request');
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));

    // A new invitation of their address outweighs the removal.
    const invited = await t.http
      .post('/api/org/invite')
      .set('Cookie', org.ownerCookie)
      .send({ email: user.email, role: 'member' });
    expect(invited.status).toBe(200);
    expect(await joinable(cookie)).toContain(org.tenant.id);
    await setJoinMode(name, 'auto');
    expect((await joinOrg(org.tenant.id, cookie)).status).toBe(200);
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
  });

  it('deactivated by SCIM: refused after the purge until SCIM reactivates them, which clears the fact', async () => {
    const name = await verified('auto');
    const { user, cookie } = await person(name);
    const scim = scimClient(t.http, (await scimToken(t, org.ownerCookie)).secret);
    const provisioned = await scim.post('/Users', oktaUser(user.email));
    expect(provisioned.status).toBe(201);
    const resource = JSON.parse(provisioned.text);
    const off = await scim.patch(`/Users/${resource.id}`, patchOp({ op: 'replace', path: 'active', value: false }));
    expect(off.status).toBe(200);
    expect(await removals()).toEqual([expect.objectContaining({ userId: user.id, reason: 'scim_deactivated' })]);

    await purgeTheirEvents(user.id);
    expect(await joinable(cookie)).not.toContain(org.tenant.id);
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));

    const on = await scim.patch(`/Users/${resource.id}`, patchOp({ op: 'replace', path: 'active', value: true }));
    expect(on.status).toBe(200);
    expect(await removals()).toEqual([]);
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: org.tenant.id });
  });

  it('deleted by SCIM: a fact of its own, kept after the purge', async () => {
    const name = await verified('auto');
    const { user, cookie } = await person(name);
    const scim = scimClient(t.http, (await scimToken(t, org.ownerCookie)).secret);
    const resource = JSON.parse((await scim.post('/Users', oktaUser(user.email))).text);
    expect((await scim.delete(`/Users/${resource.id}`)).status).toBe(204);
    expect(await removals()).toEqual([expect.objectContaining({ userId: user.id, reason: 'scim_deleted' })]);
    await purgeTheirEvents(user.id);
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
  });
});
