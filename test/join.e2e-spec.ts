import { randomUUID } from 'node:crypto';
import {
  AuditEventEntity,
  InvitationEntity,
  MembershipGrantEntity,
  TenantEntity,
  UserEntity,
} from '../src/database/entities';
import { sessionCookie } from './support/factories';
import { INVITATION_POST, UNAUTHORIZED } from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';
import { TestUser } from './support/test-identity';

const DAY = 24 * 3600 * 1000;

const refused = (error: string) => ({ success: false, error });

/**
 * POST /api/invitations/{token}/join: the signed-in invitee becomes a member. Runs on every
 * database and identity store: in cognito mode the membership is written to the user pool.
 */
describe('joining by an invitation', () => {
  const { t, factory, org } = useOrganisationSuite();
  const cognito = () => t.testIdentity.mode === 'cognito';

  const join = (token: string, cookie?: string) => {
    const request = t.http.post(`/api/invitations/${encodeURIComponent(token)}/join`);
    return cookie ? request.set('Cookie', cookie) : request;
  };
  const address = () => `invitee-${org.sequence++}@example.com`;
  /** A pending invitation of the test's tenant. */
  const invitationFor = (email: string, overrides: Partial<InvitationEntity> = {}) =>
    factory.invitation({ tenantId: org.tenant.id, email, role: 'admin', invitedBy: org.owner.id, ...overrides });
  /** A user without an organisation, signed in, and an invitation to their address. */
  const invitee = async (overrides: Partial<TestUser> = {}, invitation: Partial<InvitationEntity> = {}) => {
    const user = await factory.user({ email: address(), ...overrides });
    return {
      user,
      cookie: await sessionCookie(t, user),
      invitation: await invitationFor(user.email.toLowerCase(), invitation),
    };
  };
  /** A session whose id token carries exactly these claims (beside the issuer's, an hour's validity and token_use). */
  const tokenCookie = (claims: Record<string, unknown>) => {
    const now = Math.floor(Date.now() / 1000);
    const payload = { ...t.testIdentity.issuerClaims, token_use: 'id', iat: now, exp: now + 3600, ...claims };
    return `${t.config.sessionCookieName}=${t.testIdentity.signedPayload(payload)}`;
  };
  /** What a join may change: a refusal must leave every part as it was. */
  const snapshot = async (invitation: InvitationEntity, userId: string) => ({
    invitation: await t.dataSource.getRepository(InvitationEntity).findOneBy({ id: invitation.id }),
    user: await t.identity.findById(userId),
    tenant: await t.dataSource.getRepository(TenantEntity).findOneBy({ id: invitation.tenantId }),
    events: await t.dataSource.getRepository(AuditEventEntity).countBy({ tenantId: invitation.tenantId }),
    grants: await t.dataSource.getRepository(MembershipGrantEntity).count(),
  });
  const expectRefusal = async (
    invitation: InvitationEntity,
    userId: string,
    cookie: string | undefined,
    status: number,
    body: object,
  ) => {
    const before = await snapshot(invitation, userId);
    const res = await join(invitation.id, cookie);
    expect([res.status, res.body]).toEqual([status, body]);
    expect(await snapshot(invitation, userId)).toEqual(before);
    return res;
  };
  /** The invitee as the org routes see them now, with a session made from their stored record (a new sign-in). */
  const membersAs = async (userId: string) => {
    const record = (await t.identity.findById(userId))!;
    return t.http.get('/api/org/members').set('Cookie', await sessionCookie(t, record));
  };
  const eventsOf = (tenantId: string) =>
    t.dataSource.getRepository(AuditEventEntity).find({ where: { tenantId }, order: { occurredAt: 'ASC', id: 'ASC' } });

  describe('the rules, in order; a refusal changes nothing', () => {
    it('1: no session is 401 Unauthorized, before the token is looked at', async () => {
      const { user, invitation } = await invitee();
      await expectRefusal(invitation, user.id, undefined, 401, UNAUTHORIZED);
      const res = await join('0b6f1d1e-3c1a-4d4e-9a53-6f7f2b2f5a10');
      expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
      const expired = await join(invitation.id, await sessionCookie(t, user, -60));
      expect([expired.status, expired.body]).toEqual([401, UNAUTHORIZED]);
    });

    it('2: an unknown, empty or revoked token is 404 INVALID', async () => {
      const { user, cookie, invitation } = await invitee();
      for (const token of [
        '0b6f1d1e-3c1a-4d4e-9a53-6f7f2b2f5a10',
        ' ',
        `${invitation.id} `,
        invitation.id.toUpperCase(),
      ]) {
        const res = await join(token, cookie);
        expect([token, res.status, res.body]).toEqual([token, 404, INVITATION_POST.invalid]);
      }
      const revoked = await invitationFor(user.email, { status: 'revoked' });
      await expectRefusal(revoked, user.id, cookie, 404, INVITATION_POST.invalid);
    });

    it('2: an accepted invitation is 400 ALREADY_USED, even past its expiry; one past expiresAt is 400 EXPIRED', async () => {
      const { user, cookie } = await invitee();
      const accepted = await invitationFor(user.email, { status: 'accepted', expiresAt: new Date(Date.now() - DAY) });
      await expectRefusal(accepted, user.id, cookie, 400, INVITATION_POST.alreadyUsed);
      const late = await invitationFor(user.email, { expiresAt: new Date(Date.now() - 1_000) });
      await expectRefusal(late, user.id, cookie, 400, INVITATION_POST.expired);
    });

    it("2: a suspended tenant's invitation: 403 ORGANISATION_SUSPENDED, after the spec's refusals; a deleted one's 404", async () => {
      const { user, cookie, invitation } = await invitee();
      const late = await invitationFor(user.email, { expiresAt: new Date(Date.now() - 1_000) });
      const tenants = t.dataSource.getRepository(TenantEntity);
      await tenants.update({ id: org.tenant.id }, { status: 'suspended' });
      await expectRefusal(invitation, user.id, cookie, 403, refused('ORGANISATION_SUSPENDED'));
      await expectRefusal(late, user.id, cookie, 400, INVITATION_POST.expired);
      const someoneElse = await factory.user({ email: address() });
      await expectRefusal(
        invitation,
        someoneElse.id,
        await sessionCookie(t, someoneElse),
        403,
        refused('ORGANISATION_SUSPENDED'),
      );
      await tenants.update({ id: org.tenant.id }, { status: 'deleted' });
      await expectRefusal(invitation, user.id, cookie, 404, INVITATION_POST.invalid);
    });

    it('3: a session for another address is 403 EMAIL_MISMATCH, and the answer does not name the invited one', async () => {
      const { user, cookie } = await invitee();
      const invitation = await invitationFor(address());
      const res = await expectRefusal(invitation, user.id, cookie, 403, refused('EMAIL_MISMATCH'));
      expect(res.text).not.toContain(invitation.email);
    });

    it('3: a session without an e-mail is 403 EMAIL_MISMATCH', async () => {
      const { user, invitation } = await invitee();
      await expectRefusal(
        invitation,
        user.id,
        tokenCookie({ sub: user.id, email_verified: true }),
        403,
        refused('EMAIL_MISMATCH'),
      );
    });

    it('3: the e-mail is compared as everywhere else: a look-alike spelling of the invited address joins', async () => {
      const { user, invitation } = await invitee();
      const res = await join(
        invitation.id,
        tokenCookie({ sub: user.id, email: user.email.toUpperCase(), email_verified: true }),
      );
      expect(res.status).toBe(200);
    });

    it('4: an email_verified claim that is not true is 403 EMAIL_NOT_VERIFIED; the mismatch is judged first', async () => {
      const { user, invitation } = await invitee();
      for (const verified of [false, 'true', 'false']) {
        await expectRefusal(
          invitation,
          user.id,
          tokenCookie({ sub: user.id, email: user.email, email_verified: verified }),
          403,
          refused('EMAIL_NOT_VERIFIED'),
        );
      }
      const other = tokenCookie({ sub: user.id, email: address(), email_verified: false });
      await expectRefusal(invitation, user.id, other, 403, refused('EMAIL_MISMATCH'));
    });

    it('4: without the claim, cognito mode refuses (EMAIL_NOT_VERIFIED) and local mode lets the session join', async () => {
      const { user, invitation } = await invitee();
      const cookie = tokenCookie({ sub: user.id, email: user.email });
      if (cognito()) await expectRefusal(invitation, user.id, cookie, 403, refused('EMAIL_NOT_VERIFIED'));
      else expect((await join(invitation.id, cookie)).status).toBe(200);
    });

    it('5: a caller whose record is in another organisation is 409 MEMBER_OF_ANOTHER_ORGANISATION', async () => {
      const elsewhere = await factory.tenant();
      const member = await factory.member(elsewhere.id, { email: address(), role: 'member' });
      const invitation = await invitationFor(member.email);
      await expectRefusal(
        invitation,
        member.id,
        await sessionCookie(t, member),
        409,
        refused('MEMBER_OF_ANOTHER_ORGANISATION'),
      );
    });

    it('5: an address that another account holds is 409 EMAIL_IN_USE', async () => {
      const holder = await factory.user({ email: address() });
      const caller = await factory.user({ email: address() });
      const invitation = await invitationFor(holder.email);
      const cookie = tokenCookie({
        sub: caller.id,
        'cognito:username': caller.id,
        email: holder.email,
        email_verified: true,
      });
      await expectRefusal(invitation, caller.id, cookie, 409, refused('EMAIL_IN_USE'));
    });

    it('5: another organisation is judged before the address', async () => {
      const holder = await factory.user({ email: address() });
      const member = await factory.member((await factory.tenant()).id, { email: address(), role: 'member' });
      const invitation = await invitationFor(holder.email);
      const cookie = tokenCookie({
        sub: member.id,
        'cognito:username': member.id,
        email: holder.email,
        email_verified: true,
      });
      await expectRefusal(invitation, member.id, cookie, 409, refused('MEMBER_OF_ANOTHER_ORGANISATION'));
    });
  });

  describe('6: the invitee joins', () => {
    it("200 {success, tenantId, role, userId}: accepted, a member with the invitation's role, listed, let through org routes", async () => {
      const { user, cookie, invitation } = await invitee();
      const res = await join(invitation.id, cookie);
      expect([res.status, res.body]).toEqual([
        200,
        { success: true, tenantId: org.tenant.id, role: 'admin', userId: user.id },
      ]);
      expect((await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id })).status).toBe(
        'accepted',
      );
      expect(await t.identity.findById(user.id)).toEqual({
        ...user,
        userType: 'org',
        tenantId: org.tenant.id,
        role: 'admin',
      });
      const members = await membersAs(user.id);
      expect(members.status).toBe(200);
      expect(members.body.members).toContainEqual({ id: user.id, email: user.email, role: 'admin' });
      // As an admin now, they may invite.
      const record = (await t.identity.findById(user.id))!;
      const invite = await t.http
        .post('/api/org/invite')
        .set('Cookie', await sessionCookie(t, record))
        .send({ email: address(), role: 'member' });
      expect(invite.status).toBe(200);
      expect(await t.dataSource.getRepository(MembershipGrantEntity).count()).toBe(0);
    });

    it('records invitation.accepted as the accept does, and member.joined with the invitee as actor and target', async () => {
      const { user, cookie, invitation } = await invitee({}, { role: 'member' });
      expect((await join(invitation.id, cookie)).status).toBe(200);
      const events = (await eventsOf(org.tenant.id)).filter(
        (event) => event.targetEmail === user.email || event.targetId === user.id,
      );
      events.sort((a, b) => a.type.localeCompare(b.type));
      expect(
        events.map(({ type, actorId, actorEmail, targetType, targetId, targetEmail, data }) => ({
          type,
          actorId,
          actorEmail,
          targetType,
          targetId,
          targetEmail,
          data: JSON.parse(data),
        })),
      ).toEqual([
        {
          type: 'invitation.accepted',
          actorId: null,
          actorEmail: null,
          targetType: 'invitation',
          targetId: null,
          targetEmail: user.email,
          data: { role: 'member', invitedBy: org.owner.id },
        },
        {
          type: 'member.joined',
          actorId: user.id,
          actorEmail: user.email,
          targetType: 'user',
          targetId: user.id,
          targetEmail: user.email,
          data: { role: 'member', via: 'invitation' },
        },
      ]);
    });

    it('an existing record keeps its id and platform role', async () => {
      const { user, cookie, invitation } = await invitee({ platformRole: 'super_admin' });
      expect((await join(invitation.id, cookie)).body).toMatchObject({ success: true, userId: user.id });
      expect(await t.identity.findById(user.id)).toEqual({
        ...user,
        userType: 'org',
        tenantId: org.tenant.id,
        role: 'admin',
      });
    });

    it('a member of this tenant already keeps the role they hold, and the answer says it', async () => {
      const member = await factory.member(org.tenant.id, { email: address(), role: 'member' });
      const invitation = await invitationFor(member.email, { role: 'admin' });
      const res = await join(invitation.id, await sessionCookie(t, member));
      expect([res.status, res.body]).toEqual([
        200,
        { success: true, tenantId: org.tenant.id, role: 'member', userId: member.id },
      ]);
      expect((await t.identity.findById(member.id))?.role).toBe('member');
      expect((await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id })).status).toBe(
        'accepted',
      );
    });

    it('local store: a session whose user has no record yet gets one, made from its id and e-mail', async () => {
      if (cognito()) return; // the pool holds every user who can sign in
      const id = `new-${randomUUID()}`;
      const email = address();
      const invitation = await invitationFor(email, { role: 'member' });
      const res = await join(invitation.id, tokenCookie({ sub: id, email }));
      expect([res.status, res.body]).toEqual([
        200,
        { success: true, tenantId: org.tenant.id, role: 'member', userId: id },
      ]);
      expect(await t.identity.findById(id)).toEqual({
        id,
        email,
        platformRole: null,
        userType: 'org',
        tenantId: org.tenant.id,
        role: 'member',
      });
      expect((await membersAs(id)).body.members).toContainEqual({ id, email, role: 'member' });
    });

    it('the spec accept still creates no account and makes nobody a member', async () => {
      const email = address();
      const invitation = await invitationFor(email);
      const users = cognito() ? 0 : await t.dataSource.getRepository(UserEntity).count();
      const res = await t.http.post(`/api/invitations/${invitation.id}`);
      expect([res.status, res.body]).toEqual([200, { success: true, tenantId: org.tenant.id, role: 'admin' }]);
      expect(await t.identity.findByEmail(email)).toEqual([]);
      if (!cognito()) expect(await t.dataSource.getRepository(UserEntity).count()).toBe(users);
      expect((await eventsOf(org.tenant.id)).map((event) => event.type)).not.toContain('member.joined');
    });
  });

  describe('races: one winner', () => {
    it('12 parallel joins of one token: one 200, eleven ALREADY_USED, one membership', async () => {
      const { user, cookie, invitation } = await invitee();
      const answers = await Promise.all(Array.from({ length: 12 }, () => join(invitation.id, cookie)));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([200, ...Array(11).fill(400)]);
      for (const res of answers.filter((answer) => answer.status === 400))
        expect(res.body).toEqual(INVITATION_POST.alreadyUsed);
      const members = (await membersAs(user.id)).body.members.filter((member: { id: string }) => member.id === user.id);
      expect(members).toHaveLength(1);
      expect((await eventsOf(org.tenant.id)).filter((event) => event.type === 'member.joined')).toHaveLength(1);
      expect(await t.dataSource.getRepository(MembershipGrantEntity).count()).toBe(0);
    });

    it('a join racing a revoke: one of them wins, and a revoked invitation made nobody a member', async () => {
      for (let round = 0; round < 4; round++) {
        const { user, cookie, invitation } = await invitee();
        const [joined, revoked] = await Promise.all([
          join(invitation.id, cookie),
          t.http.delete(`/api/org/invitations/${invitation.id}`).set('Cookie', org.ownerCookie),
        ]);
        expect([joined.status, revoked.status].filter((status) => status === 200)).toHaveLength(1);
        const status = (await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id }))
          .status;
        const record = await t.identity.findById(user.id);
        if (joined.status === 200) {
          expect([status, record?.tenantId]).toEqual(['accepted', org.tenant.id]);
        } else {
          expect([joined.body, status, record?.tenantId]).toEqual([INVITATION_POST.invalid, 'revoked', null]);
        }
      }
    });

    it('a join racing the spec accept: one of them wins, and only the join makes a member', async () => {
      for (let round = 0; round < 4; round++) {
        const { user, cookie, invitation } = await invitee();
        const [joined, accepted] = await Promise.all([
          join(invitation.id, cookie),
          t.http.post(`/api/invitations/${invitation.id}`),
        ]);
        expect([joined.status, accepted.status].sort()).toEqual([200, 400]);
        const loser = joined.status === 200 ? accepted : joined;
        expect(loser.body).toEqual(INVITATION_POST.alreadyUsed);
        expect((await t.identity.findById(user.id))?.tenantId).toBe(joined.status === 200 ? org.tenant.id : null);
      }
    });

    it('one user joining two organisations at once: one membership, the other join refused and its invitation left open', async () => {
      const user = await factory.user({ email: address() });
      const cookie = await sessionCookie(t, user);
      const other = await factory.tenant();
      const here = await invitationFor(user.email);
      const there = await factory.invitation({ tenantId: other.id, email: user.email, role: 'member' });
      const answers = await Promise.all([join(here.id, cookie), join(there.id, cookie)]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
      expect(answers.find((res) => res.status === 409)?.body).toEqual(refused('MEMBER_OF_ANOTHER_ORGANISATION'));
      const winner = answers[0].status === 200 ? here : there;
      const loser = winner === here ? there : here;
      expect((await t.identity.findById(user.id))?.tenantId).toBe(winner.tenantId);
      expect((await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: loser.id })).status).toBe(
        'pending',
      );
    });
  });
});
