import { AuditEventEntity, JoinRequestEntity, ScimUserEntity } from '../src/database/entities';
import { refused, useDomainsSuite } from './support/domains';
import { oktaUser, patchOp, scimClient, scimToken } from './support/scim';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A person detached by SCIM (`active` false, or deleted) cannot come back by a domain or a request,
 * only by SCIM or a new invitation: the organisation's provisioning decides who is in it
 * (docs/scim.md, docs/domains.md).
 */
describe('SCIM and verified domains', () => {
  const { t, org, verified, person, joinOrg, expectJoinRefused } = useDomainsSuite();
  const events = async (type: string, targetId: string) =>
    (await t.dataSource.getRepository(AuditEventEntity).findBy({ type, tenantId: org.tenant.id, targetId })).map(
      (event) => ({ ...event, data: JSON.parse(event.data) }),
    );
  const requests = (userId: string) => t.dataSource.getRepository(JoinRequestEntity).findBy({ userId });
  const scimRow = (id: string) => t.dataSource.getRepository(ScimUserEntity).findOneBy({ id });

  /** A person at a verified domain of the organisation (this join mode), provisioned by SCIM: a member. */
  const provisioned = async (joinMode: 'auto' | 'request') => {
    const name = await verified(joinMode);
    const { user, cookie } = await person(name);
    const scim = scimClient(t.http, (await scimToken(t, org.ownerCookie)).secret);
    const created = await scim.post('/Users', oktaUser(user.email));
    expect(created.status).toBe(201);
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
    return { user, cookie, scim, id: JSON.parse(created.text).id as string };
  };
  type Provisioned = Awaited<ReturnType<typeof provisioned>>;

  /** PATCH active false, as Okta (a boolean) or Entra ID (the string "False") sends it. */
  const deactivate = async ({ scim, id, user }: Provisioned, active: boolean | string = false) => {
    const res = await scim.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: active }));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).active).toBe(false);
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: null, role: null });
    expect(await events('member.deactivated', user.id)).toHaveLength(1);
  };
  const remove = async ({ scim, id, user }: Provisioned) => {
    expect((await scim.delete(`/Users/${id}`)).status).toBe(204);
    expect(await scimRow(id)).toBeNull();
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: null, role: null });
    expect(await events('member.removed', user.id)).toEqual([
      expect.objectContaining({ data: { via: 'scim', role: 'member' } }),
    ]);
  };
  /** The person is refused 403 REMOVED_BY_ORGANISATION; their record, requests and the audit trail are unchanged. */
  const expectRemovedRefusal = async ({ user, cookie }: Provisioned) => {
    await expectJoinRefused(user.id, cookie, org.tenant.id, 403, refused('REMOVED_BY_ORGANISATION'));
    expect(await t.identity.findById(user.id)).toMatchObject({ tenantId: null, role: null });
    expect(await requests(user.id)).toEqual([]);
  };
  const invite = async (email: string) => {
    // The invitation must be later than the detachment: stored times have milliseconds.
    await sleep(5);
    const res = await t.http.post('/api/org/invite').set('Cookie', org.ownerCookie).send({ email, role: 'member' });
    expect(res.status).toBe(200);
  };
  const joined = (userId: string) => ({ success: true, tenantId: org.tenant.id, role: 'member', userId });

  describe('POST /api/me/joinable-organisations/{tenantId}/join after SCIM’s PATCH active false', () => {
    it.each([
      ['Okta’s boolean', false],
      ['Entra ID’s string', 'False'],
    ])(
      '"cannot come back by a domain": auto, deactivated (%s): 403 REMOVED_BY_ORGANISATION, the record still without an organisation',
      async (_, active) => {
        const member = await provisioned('auto');
        await deactivate(member, active);
        await expectRemovedRefusal(member);
        expect(await events('member.joined', member.user.id)).toEqual([
          expect.objectContaining({ data: { via: 'scim', role: 'member' } }),
        ]);
      },
    );

    it('"cannot come back by a request": request mode, deactivated: 403 REMOVED_BY_ORGANISATION, no join request', async () => {
      const member = await provisioned('request');
      await deactivate(member);
      await expectRemovedRefusal(member);
      expect(await events('join_request.created', member.user.id)).toEqual([]);
    });

    it('"only by SCIM": PATCH active true makes them a member again with their role; the join is then 409 ALREADY_MEMBER', async () => {
      const member = await provisioned('auto');
      await deactivate(member);
      const on = await member.scim.patch(`/Users/${member.id}`, patchOp({ op: 'replace', value: { active: true } }));
      expect(on.status).toBe(200);
      expect(JSON.parse(on.text).active).toBe(true);
      expect(await t.identity.findById(member.user.id)).toMatchObject({
        userType: 'org',
        tenantId: org.tenant.id,
        role: 'member',
      });
      expect(await scimRow(member.id)).toMatchObject({ active: 1, role: null });
      expect(await events('member.reactivated', member.user.id)).toHaveLength(1);
      await expectJoinRefused(member.user.id, member.cookie, org.tenant.id, 409, refused('ALREADY_MEMBER'));
    });

    it.each(['auto', 'request'] as const)(
      '"or a new invitation": %s mode, deactivated then invited: the join is allowed again',
      async (joinMode) => {
        const member = await provisioned(joinMode);
        await deactivate(member);
        await expectRemovedRefusal(member);
        await invite(member.user.email);
        const res = await joinOrg(org.tenant.id, member.cookie);
        if (joinMode === 'auto') {
          expect([res.status, res.body]).toEqual([200, joined(member.user.id)]);
          expect(await t.identity.findById(member.user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
          expect((await events('member.joined', member.user.id)).map((event) => event.data.via)).toEqual([
            'scim',
            'domain',
          ]);
        } else {
          expect([res.status, res.body]).toEqual([
            202,
            { success: true, request: { id: expect.any(String), status: 'pending' } },
          ]);
          expect(await requests(member.user.id)).toEqual([
            expect.objectContaining({ id: res.body.request.id, tenantId: org.tenant.id, status: 'pending' }),
          ]);
          expect((await t.identity.findById(member.user.id))?.tenantId).toBeNull();
        }
      },
    );
  });

  describe('POST /api/me/joinable-organisations/{tenantId}/join after SCIM’s DELETE', () => {
    it.each(['auto', 'request'] as const)(
      '"cannot come back by a domain or a request": %s mode, deleted: 403 REMOVED_BY_ORGANISATION, nothing changes',
      async (joinMode) => {
        const member = await provisioned(joinMode);
        await remove(member);
        await expectRemovedRefusal(member);
      },
    );

    it('"or a new invitation": deleted then invited: auto joins again (200, a member)', async () => {
      const member = await provisioned('auto');
      await remove(member);
      await invite(member.user.email);
      const res = await joinOrg(org.tenant.id, member.cookie);
      expect([res.status, res.body]).toEqual([200, joined(member.user.id)]);
      expect(await t.identity.findById(member.user.id)).toMatchObject({
        userType: 'org',
        tenantId: org.tenant.id,
        role: 'member',
      });
    });

    it('"only by SCIM": deleted then created again by SCIM: a member again; the join is 409 ALREADY_MEMBER', async () => {
      const member = await provisioned('auto');
      await remove(member);
      const again = await member.scim.post('/Users', oktaUser(member.user.email));
      expect(again.status).toBe(201);
      expect(await t.identity.findById(member.user.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
      expect(await scimRow(JSON.parse(again.text).id)).toMatchObject({ userId: member.user.id, active: 1 });
      await expectJoinRefused(member.user.id, member.cookie, org.tenant.id, 409, refused('ALREADY_MEMBER'));
    });
  });
});
