import { In } from 'typeorm';
import { InvitationEmailOutboxEntity, InvitationEntity } from '../src/database/entities';
import { InvitationsStore } from '../src/invitations/invitations.store';
import { sessionCookie } from './support/factories';
import { INVITATION_GET, INVITE_ERRORS, ORG_INVITATION_ERRORS, UNAUTHORIZED, UUID } from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';

const DAY = 24 * 3600 * 1000;

/** Issue 12 route 5: POST /api/org/invitations/{id}/resend. */
describe('POST /api/org/invitations/{id}/resend (issue 12)', () => {
  // A limit of 3 an hour, so that the shared counter shows within a few requests.
  const { t, factory, org } = useOrganisationSuite({ app: { env: { INVITE_RATE_LIMIT: '3' } } });

  const resend = (id: string, cookie: string | null = org.ownerCookie) => {
    const request = t.http
      .post(`/api/org/invitations/${encodeURIComponent(id)}/resend`)
      .set('Host', 'portal.example.com');
    return cookie ? request.set('Cookie', cookie) : request;
  };
  const invitation = (overrides: Partial<InvitationEntity> = {}) =>
    factory.invitation({
      tenantId: org.tenant.id,
      invitedBy: 'someone-else',
      role: 'admin',
      createdAt: new Date(Date.now() - 2 * DAY),
      ...overrides,
    });
  const rows = () =>
    t.dataSource
      .getRepository(InvitationEntity)
      .find({ where: { tenantId: org.tenant.id }, order: { createdAt: 'ASC' } });
  const outbox = (ids: string[]) =>
    t.dataSource.getRepository(InvitationEmailOutboxEntity).findBy({ invitationId: In(ids) });
  const live = (all: InvitationEntity[]) => all.filter((row) => row.status === 'pending');

  it.each([
    ['pending', {}],
    ['pending past its expiresAt', { expiresAt: new Date(Date.now() - DAY) }],
    ['stored expired', { status: 'expired' as const, expiresAt: new Date(Date.now() - DAY) }],
  ])(
    're-sends a %s invitation: a new invitation from the caller, valid 7 days, the old one revoked, the e-mail in the outbox',
    async (_, overrides) => {
      const old = await invitation(overrides);
      const before = Date.now();
      const res = await resend(old.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        invitation: {
          id: expect.stringMatching(UUID),
          email: old.email,
          role: 'admin',
          status: 'pending',
          expiresAt: expect.any(String),
        },
      });
      const { id, expiresAt } = res.body.invitation;
      expect(id).not.toBe(old.id);
      expect(new Date(expiresAt).getTime()).toBeGreaterThanOrEqual(before + 7 * DAY);
      expect(new Date(expiresAt).getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY);

      expect(await rows()).toEqual([
        { ...old, status: 'revoked' },
        {
          id,
          tenantId: org.tenant.id,
          email: old.email,
          role: 'admin',
          status: 'pending',
          expiresAt: new Date(expiresAt),
          invitedBy: org.owner.id,
          createdAt: expect.any(Date),
        },
      ]);
      const mails = await outbox([old.id, id]);
      expect(mails).toEqual([expect.objectContaining({ invitationId: id })]);
      expect(JSON.parse(mails[0].payload)).toMatchObject({
        to: old.email,
        tenantName: org.tenant.name,
        inviterEmail: org.owner.email,
        role: 'admin',
        link: `https://portal.example.com/invitations/${id}`,
      });

      // The old token is dead, the new one valid.
      expect((await t.http.get(`/api/invitations/${old.id}`)).body).toEqual(INVITATION_GET.invalid);
      expect((await t.http.get(`/api/invitations/${id}`)).body).toMatchObject({
        valid: true,
        email: old.email,
        role: 'admin',
      });
    },
  );

  it.each([
    ['accepted', 'accepted' as const],
    ['revoked', 'revoked' as const],
  ])('an %s invitation is 400 "Invitation cannot be resent", nothing stored or queued', async (_, status) => {
    const old = await invitation({ status });
    const res = await resend(old.id);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(ORG_INVITATION_ERRORS.cannotResend);
    expect(await rows()).toEqual([old]);
    expect(await outbox([old.id])).toEqual([]);
  });

  it.each([
    ['an unknown id', async () => '6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10'],
    ["another tenant's invitation", async () => (await factory.invitation()).id],
  ])('%s is 404 "Invitation not found", nothing stored', async (_, makeId) => {
    const id = await makeId();
    const res = await resend(id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(ORG_INVITATION_ERRORS.notFound);
    expect(await rows()).toEqual([]);
  });

  it('no session is 401; a member is 403 "Only owner or admin can manage invitations"; nothing changes', async () => {
    const old = await invitation();
    const anonymous = await resend(old.id, null);
    expect([anonymous.status, anonymous.body]).toEqual([401, UNAUTHORIZED]);
    const member = await resend(
      old.id,
      await sessionCookie(t, await factory.member(org.tenant.id, { role: 'member' })),
    );
    expect([member.status, member.body]).toEqual([403, ORG_INVITATION_ERRORS.notOwnerOrAdmin]);
    expect(await rows()).toEqual([old]);
  });

  it("counts towards the caller's hourly limit, shared with POST /api/org/invite: then 429 as spec 4.9, with Retry-After", async () => {
    const old = await invitation();
    const invited = await t.http
      .post('/api/org/invite')
      .set('Cookie', org.ownerCookie)
      .send({ email: 'one@example.com', role: 'member' });
    expect(invited.status).toBe(200);
    const first = await resend(old.id);
    expect(first.status).toBe(200);
    const second = await resend(first.body.invitation.id);
    expect(second.status).toBe(200);
    const third = await resend(second.body.invitation.id);
    expect(third.status).toBe(429);
    expect(third.body).toEqual(INVITE_ERRORS.rateLimited);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    const fourth = await t.http
      .post('/api/org/invite')
      .set('Cookie', org.ownerCookie)
      .send({ email: 'two@example.com', role: 'member' });
    expect(fourth.status).toBe(429);
    // The refused resend changed nothing: the last new invitation is still the live one.
    expect(
      live(await rows())
        .map((row) => row.id)
        .sort(),
    ).toEqual([invited.body.invitation.id, second.body.invitation.id].sort());
  });

  it('parallel resends of one invitation leave exactly one live invitation and one e-mail; the others are 400', async () => {
    const old = await invitation();
    const answers = await Promise.all([resend(old.id), resend(old.id), resend(old.id)]);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 400, 400]);
    for (const res of answers.filter((answer) => answer.status === 400))
      expect(res.body).toEqual(ORG_INVITATION_ERRORS.cannotResend);
    const all = await rows();
    expect(live(all)).toHaveLength(1);
    expect(all.find((row) => row.id === old.id)!.status).toBe('revoked');
    expect(await outbox(all.map((row) => row.id))).toHaveLength(1);
  });

  it('a database failure is 500 {"error":"Failed to resend invitation"}: the old invitation stays live, no e-mail', async () => {
    const old = await invitation();
    jest.spyOn(t.app.get(InvitationsStore), 'create').mockRejectedValueOnce(new Error('database down'));
    const res = await resend(old.id);
    expect(res.status).toBe(500);
    expect(res.body).toEqual(ORG_INVITATION_ERRORS.resendFailed);
    expect(await rows()).toEqual([old]);
    expect(await outbox([old.id])).toEqual([]);
  });

  it('a resend racing a revoke leaves at most one live invitation, and the answers agree with the rows', async () => {
    const old = await invitation();
    const [resent, revoked] = await Promise.all([
      resend(old.id),
      t.http.delete(`/api/org/invitations/${old.id}`).set('Cookie', org.ownerCookie),
    ]);
    expect(revoked.status).toBe(200);
    const all = await rows();
    expect(all.find((row) => row.id === old.id)!.status).toBe('revoked');
    if (resent.status === 200) expect(live(all).map((row) => row.id)).toEqual([resent.body.invitation.id]);
    else expect([resent.status, resent.body, live(all)]).toEqual([400, ORG_INVITATION_ERRORS.cannotResend, []]);
  });
});
