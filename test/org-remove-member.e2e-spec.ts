import { sessionCookie } from './support/factories';
import { REMOVE_MEMBER_ERRORS, UNAUTHORIZED, USER_NOT_FOUND } from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

describe('DELETE /api/org/users/{id} (spec 4.10)', () => {
  // Each test gets its own tenant and owner.
  const { t, factory, org, notOrgUsers } = useOrganisationSuite();

  const remove = (id: string, cookie?: string) => {
    const request = t.http.delete(`/api/org/users/${encodeURIComponent(id)}`);
    return cookie ? request.set('Cookie', cookie) : request;
  };

  /** The user as the identity store now has it: membership unchanged. */
  const expectStillMember = async (user: TestUser) => {
    expect(await t.identity.findById(user.id)).toMatchObject({ id: user.id, tenantId: user.tenantId, role: user.role });
  };

  it('rule 8: removes the member from the tenant: 200 {success:true}; the account stays, without tenant or role', async () => {
    const member = await factory.member(org.tenant.id, { role: 'member' });
    const res = await remove(member.id, org.ownerCookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await t.identity.findById(member.id)).toEqual({ ...member, tenantId: null, role: null });
  });

  it('rule 8: the admin user endpoint then shows the user without a tenant', async () => {
    const member = await factory.member(org.tenant.id, { role: 'admin' });
    expect((await remove(member.id, org.ownerCookie)).status).toBe(200);
    const superAdmin = await sessionCookie(t, await factory.superAdmin());
    const res = await t.http.get(`/api/admin/users/${member.id}`).set('Cookie', superAdmin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: { id: member.id, email: member.email, platformRole: null, tenantId: null, role: null },
    });
  });

  it.each([
    ['owner', 'owner'],
    ['owner', 'admin'],
    ['admin', 'admin'],
    ['admin', 'member'],
  ])('rule 8: a caller with role %s may remove a %s', async (callerRole, targetRole) => {
    const caller = await factory.member(org.tenant.id, { role: callerRole });
    const target = await factory.member(org.tenant.id, { role: targetRole });
    const res = await remove(target.id, await sessionCookie(t, caller));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await t.identity.findById(target.id)).toMatchObject({ tenantId: null, role: null });
  });

  it('rule 8: removing someone twice is 403 the second time: they are no longer in the organisation', async () => {
    const member = await factory.member(org.tenant.id, { role: 'member' });
    expect((await remove(member.id, org.ownerCookie)).status).toBe(200);
    const again = await remove(member.id, org.ownerCookie);
    expect(again.status).toBe(403);
    expect(again.body).toEqual(REMOVE_MEMBER_ERRORS.notInOrganisation);
  });

  it('rule 1: no session is 401 Unauthorized', async () => {
    const member = await factory.member(org.tenant.id, { role: 'member' });
    const res = await remove(member.id);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    await expectStillMember(member);
  });

  it.each([
    ['an expired token', () => sessionCookie(t, org.owner, -60)],
    ['garbage', async () => `${t.config.sessionCookieName}=not.a.jwt`],
  ])('rule 1: %s is 401 Unauthorized', async (_, cookie) => {
    const member = await factory.member(org.tenant.id, { role: 'member' });
    const res = await remove(member.id, await cookie());
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    await expectStillMember(member);
  });

  it('rule 1 before rule 4: without a session, even your own id is 401', async () => {
    const res = await remove(org.owner.id);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it.each(notOrgUsers)(
    'rule 2: a caller who is %s is 403 "Only organisation users can access this"',
    async (_, makeCaller) => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const res = await remove(member.id, await sessionCookie(t, await makeCaller()));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.notOrgUser);
      await expectStillMember(member);
    },
  );

  it.each([
    ['member', 'member'],
    ['no role', null],
  ])('rule 3: an org user with %s is 403 "Only owner or admin can remove users"', async (_, role) => {
    const member = await factory.member(org.tenant.id, { role: 'member' });
    const caller = await factory.member(org.tenant.id, { role });
    const res = await remove(member.id, await sessionCookie(t, caller));
    expect(res.status).toBe(403);
    expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.notOwnerOrAdmin);
    await expectStillMember(member);
  });

  it('rule 3 before rule 4: a member removing themselves is 403, not 400', async () => {
    const member = await factory.member(org.tenant.id, { role: 'member' });
    const res = await remove(member.id, await sessionCookie(t, member));
    expect(res.status).toBe(403);
    expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.notOwnerOrAdmin);
  });

  it('rule 4: removing yourself is 400 "Cannot remove yourself" and changes nothing', async () => {
    const res = await remove(org.owner.id, org.ownerCookie);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.cannotRemoveSelf);
    await expectStillMember(org.owner);
  });

  it('rule 2 on the stored record before rule 4: once your account is gone, even your own id is 403', async () => {
    await t.identity.deleteUser(org.owner.id);
    const res = await remove(org.owner.id, org.ownerCookie);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.notOrgUser);
  });

  it('rule 5: an unknown user is 404 "User not found"', async () => {
    const res = await remove('no-such-user', org.ownerCookie);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(USER_NOT_FOUND);
  });

  it('rule 5 before rule 6: an unknown id is 404 even for an admin', async () => {
    const admin = await factory.member(org.tenant.id, { role: 'admin' });
    const res = await remove('no-such-user', await sessionCookie(t, admin));
    expect(res.status).toBe(404);
    expect(res.body).toEqual(USER_NOT_FOUND);
  });

  it('rule 6: a user of another organisation is 403 "User is not in your organisation" and keeps their membership', async () => {
    const other = await factory.tenant();
    const outsider = await factory.member(other.id, { role: 'member' });
    const res = await remove(outsider.id, org.ownerCookie);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.notInOrganisation);
    await expectStillMember(outsider);
  });

  it('rule 6: a user in no organisation is 403 "User is not in your organisation"', async () => {
    const loose = await factory.user();
    const res = await remove(loose.id, org.ownerCookie);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.notInOrganisation);
  });

  it('rule 6 before rule 7: an admin removing an owner of another organisation is "not in your organisation"', async () => {
    const admin = await factory.member(org.tenant.id, { role: 'admin' });
    const otherOwner = await factory.member((await factory.tenant()).id, { role: 'owner' });
    const res = await remove(otherOwner.id, await sessionCookie(t, admin));
    expect(res.status).toBe(403);
    expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.notInOrganisation);
  });

  it('rule 7: an admin removing an owner is 403 "Admins cannot remove owners" and the owner stays', async () => {
    const admin = await factory.member(org.tenant.id, { role: 'admin' });
    const res = await remove(org.owner.id, await sessionCookie(t, admin));
    expect(res.status).toBe(403);
    expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.adminCannotRemoveOwner);
    await expectStillMember(org.owner);
  });

  it.each(['findById', 'removeFromTenant'] as const)(
    'rule 9: a failure of the store\'s %s is 500 "Failed to remove user"',
    async (method) => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      jest.spyOn(t.identity, method).mockRejectedValueOnce(new Error('identity store down'));
      const res = await remove(member.id, org.ownerCookie);
      expect(res.status).toBe(500);
      expect(res.body).toEqual(REMOVE_MEMBER_ERRORS.removeFailed);
      await expectStillMember(member);
    },
  );

  describe('bad input', () => {
    it('a 5,000-character id is 404 "User not found"', async () => {
      const res = await remove('x'.repeat(5_000), org.ownerCookie);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(USER_NOT_FOUND);
    });

    it.each([
      ["' OR '1'='1"],
      ['1; DROP TABLE users; --'],
      ['%'],
      ['*'],
      ['../../admin/users'],
      ['<script>alert(1)</script>'],
      ['ユーザー🚀'],
      [' '],
    ])('the id %p is looked up literally: 404 and nobody is removed', async (id) => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const res = await remove(id, org.ownerCookie);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(USER_NOT_FOUND);
      await expectStillMember(member);
      await expectStillMember(org.owner);
    });

    it.each([
      ['upper-cased', (id: string) => id.toUpperCase()],
      ['with a trailing space', (id: string) => `${id} `],
    ])('rule 4: your own id %s never removes you, however loosely the store matches ids', async (_, variant) => {
      const res = await remove(variant(org.owner.id), org.ownerCookie);
      // 404 where the store matches ids exactly; 400 where it matches loosely (MySQL collations).
      expect([400, 404]).toContain(res.status);
      expect(res.body).toEqual(res.status === 400 ? REMOVE_MEMBER_ERRORS.cannotRemoveSelf : USER_NOT_FOUND);
      await expectStillMember(org.owner);
    });

    it('a body is not read: extra JSON fields change nothing', async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const res = await invalidRequest(() =>
        remove(member.id, org.ownerCookie).send({ id: org.owner.id, tenantId: 'other', role: 'owner' }),
      );
      expect(res.status).toBe(200);
      expect(await t.identity.findById(member.id)).toMatchObject({ tenantId: null, role: null });
      await expectStillMember(org.owner);
    });

    it('a malformed JSON body is 400 JSON and nobody is removed', async () => {
      const member = await factory.member(org.tenant.id, { role: 'member' });
      const res = await invalidRequest(() =>
        remove(member.id, org.ownerCookie).set('Content-Type', 'application/json').send('{"id":'),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Malformed JSON body' });
      await expectStillMember(member);
    });

    it('no id at all is a 404 JSON error', async () => {
      const res = await invalidRequest(() => t.http.delete('/api/org/users/').set('Cookie', org.ownerCookie));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    });
  });
});
