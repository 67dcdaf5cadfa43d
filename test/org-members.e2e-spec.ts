import { sessionCookie } from './support/factories';
import { MEMBER_ERRORS, PAGING_ERRORS, UNAUTHORIZED, USER_NOT_FOUND } from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

/** GET and PATCH /api/org/members: the members of the caller's organisation, and their roles. */
describe('organisation members', () => {
  // Each test gets its own tenant, whose owner's e-mail sorts first.
  const { t, factory, org, notOrgUsers } = useOrganisationSuite({ ownerSortsFirst: true });

  /** A member of the test's tenant whose e-mail starts with `name` (so the test picks the order). */
  const member = (name: string, role = 'member') =>
    factory.member(org.tenant.id, { role, email: `${name}-${org.sequence++}@example.com` });
  const shown = (user: TestUser) => ({ id: user.id, email: user.email, role: user.role });
  const expectRole = async (user: TestUser, role: string | null) => {
    expect(await t.identity.findById(user.id)).toMatchObject({ id: user.id, tenantId: user.tenantId, role });
  };

  describe('GET /api/org/members', () => {
    const list = (cookie?: string, query = '') => {
      const request = t.http.get(`/api/org/members${query}`);
      return cookie ? request.set('Cookie', cookie) : request;
    };

    it("answers 200 {members:[{id,email,role}]}: the users of the caller's tenant, by e-mail; no nextCursor on the last page", async () => {
      const carol = await member('c-carol', 'admin');
      const bob = await member('b-bob');
      const res = await list(org.ownerCookie);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ members: [shown(org.owner), shown(bob), shown(carol)] });
    });

    it('a caller only ever sees its own tenant', async () => {
      const other = await factory.tenant();
      await factory.member(other.id, { role: 'member', email: `b-elsewhere-${org.sequence++}@example.com` });
      await factory.user({ email: `b-loose-${org.sequence++}@example.com` });
      const res = await list(org.ownerCookie);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ members: [shown(org.owner)] });
    });

    it.each(['member', 'admin'])(
      'reads of members are open to any role of the organisation: a %s gets 200',
      async (role) => {
        const caller = await member('m-caller', role);
        const res = await list(await sessionCookie(t, caller));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ members: [shown(org.owner), shown(caller)] });
      },
    );

    it('no session is 401 {"error":"Unauthorized"}', async () => {
      const res = await list();
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it.each(notOrgUsers)(
      'a caller who is %s is 403 "Only organisation users can access this"',
      async (_, makeCaller) => {
        const res = await list(await sessionCookie(t, await makeCaller()));
        expect(res.status).toBe(403);
        expect(res.body).toEqual(MEMBER_ERRORS.notOrgUser);
      },
    );

    it('the caller is confirmed against the identity store: once removed from the tenant, the old token gets 403', async () => {
      const caller = await member('m-caller');
      const cookie = await sessionCookie(t, caller);
      await t.testIdentity.updateUser(caller.id, { tenantId: null, role: null });
      const res = await list(cookie);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(MEMBER_ERRORS.notOrgUser);
    });

    it('limit pages the list; nextCursor leads to the next page and is absent on the last one', async () => {
      const users = [org.owner, await member('b'), await member('c'), await member('d'), await member('e')];
      const first = await list(org.ownerCookie, '?limit=2');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ members: users.slice(0, 2).map(shown), nextCursor: expect.any(String) });
      const second = await list(org.ownerCookie, `?limit=2&cursor=${first.body.nextCursor}`);
      expect(second.body).toEqual({ members: users.slice(2, 4).map(shown), nextCursor: expect.any(String) });
      const last = await list(org.ownerCookie, `?limit=2&cursor=${second.body.nextCursor}`);
      expect(last.body).toEqual({ members: users.slice(4).map(shown) });
    });

    it('limit defaults to 50', async () => {
      for (let i = 0; i < 50; i++) await member(`m${String(i).padStart(2, '0')}`);
      const res = await list(org.ownerCookie);
      expect(res.status).toBe(200);
      expect(res.body.members).toHaveLength(50);
      expect(res.body.nextCursor).toEqual(expect.any(String));
      const rest = await list(org.ownerCookie, `?cursor=${res.body.nextCursor}`);
      expect(rest.body.members).toHaveLength(1);
      expect(rest.body.nextCursor).toBeUndefined();
    });

    it('paging through the list while it changes never repeats or skips a row that stayed put', async () => {
      const b = await member('b');
      const d = await member('d');
      const f = await member('f');
      const first = await list(org.ownerCookie, '?limit=2');
      expect(first.body.members).toEqual([shown(org.owner), shown(b)]);
      // Meanwhile: one joins before the cursor, one after it, and one after it leaves.
      await member('a0');
      const e = await member('e');
      await t.testIdentity.updateUser(d.id, { tenantId: null, role: null });
      const rest = await list(org.ownerCookie, `?limit=10&cursor=${first.body.nextCursor}`);
      expect(rest.body).toEqual({ members: [shown(e), shown(f)] });
    });

    it.each(['0', '101', '-1', '1.5', 'ten', '', '1e1', ' 5'])(
      'limit=%p is 400 with a clear message',
      async (limit) => {
        const res = await invalidRequest(() => list(org.ownerCookie, `?limit=${encodeURIComponent(limit)}`));
        expect(res.status).toBe(400);
        expect(res.body).toEqual(PAGING_ERRORS.invalidLimit);
      },
    );

    it('a repeated limit is 400', async () => {
      const res = await list(org.ownerCookie, '?limit=1&limit=2');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(PAGING_ERRORS.invalidLimit);
    });

    it.each([
      ['not base64url', 'not a cursor!'],
      ['base64url of text that is not JSON', Buffer.from('hello').toString('base64url')],
      ['a JSON object', Buffer.from('{"email":"a"}').toString('base64url')],
      ['a key of the wrong length', Buffer.from('["a@example.com"]').toString('base64url')],
      ['a key of numbers', Buffer.from('[1,2]').toString('base64url')],
      ['empty', ''],
      ['5,000 characters', 'A'.repeat(5_000)],
    ])('a cursor that is %s is 400 "Invalid cursor"', async (_, cursor) => {
      const res = await list(org.ownerCookie, `?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(PAGING_ERRORS.invalidCursor);
    });

    it('an identity store failure is 500 {"error":"Failed to list members"}', async () => {
      jest.spyOn(t.identity, 'listTenantMembers').mockRejectedValueOnce(new Error('identity store down'));
      const res = await list(org.ownerCookie);
      expect(res.status).toBe(500);
      expect(res.body).toEqual(MEMBER_ERRORS.listFailed);
    });
  });

  describe('PATCH /api/org/members/{id}', () => {
    const patch = (id: string, body: unknown, cookie?: string) => {
      const request = t.http.patch(`/api/org/members/${encodeURIComponent(id)}`);
      return (cookie ? request.set('Cookie', cookie) : request).send(body as object);
    };

    it('answers 200 {success:true, member:{id,email,role}} and updates the identity store', async () => {
      const bob = await member('b-bob');
      const res = await patch(bob.id, { role: 'admin' }, org.ownerCookie);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, member: { ...shown(bob), role: 'admin' } });
      await expectRole(bob, 'admin');
      const listed = await t.http.get('/api/org/members').set('Cookie', org.ownerCookie);
      expect(listed.body.members).toContainEqual({ ...shown(bob), role: 'admin' });
    });

    it.each([
      ['owner', 'admin', 'owner'],
      ['owner', 'owner', 'member'],
      ['admin', 'member', 'admin'],
      ['admin', 'admin', 'member'],
    ])('a caller with role %s may change a %s to %s', async (callerRole, from, to) => {
      const caller = await member('m-caller', callerRole);
      const target = await member('t-target', from);
      const res = await patch(target.id, { role: to }, await sessionCookie(t, caller));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, member: { ...shown(target), role: to } });
      await expectRole(target, to);
    });

    it('a demoted admin is refused on the next request, whatever the old token says', async () => {
      const admin = await member('m-admin', 'admin');
      const adminCookie = await sessionCookie(t, admin);
      expect((await patch(admin.id, { role: 'member' }, org.ownerCookie)).status).toBe(200);
      const target = await member('t-target');
      const res = await patch(target.id, { role: 'admin' }, adminCookie);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(MEMBER_ERRORS.notOwnerOrAdmin);
      await expectRole(target, 'member');
    });

    it('no session is 401 {"error":"Unauthorized"}', async () => {
      const bob = await member('b-bob');
      const res = await patch(bob.id, { role: 'admin' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
      await expectRole(bob, 'member');
    });

    it('a caller outside any organisation is 403 "Only organisation users can access this"', async () => {
      const bob = await member('b-bob');
      const res = await patch(bob.id, { role: 'admin' }, await sessionCookie(t, await factory.superAdmin()));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(MEMBER_ERRORS.notOrgUser);
      await expectRole(bob, 'member');
    });

    it('a member is 403 "Only owner or admin can manage members", even with a bad body', async () => {
      const caller = await member('m-caller');
      const bob = await member('b-bob');
      const cookie = await sessionCookie(t, caller);
      for (const body of [{ role: 'admin' }, { role: 'king' }]) {
        const res = await invalidRequest(() => patch(bob.id, body, cookie));
        expect(res.status).toBe(403);
        expect(res.body).toEqual(MEMBER_ERRORS.notOwnerOrAdmin);
      }
      await expectRole(bob, 'member');
    });

    it.each([
      ['missing', {}],
      ['not a role', { role: 'superuser' }],
      ['in capitals', { role: 'Owner' }],
      ['a number', { role: 1 }],
      ['null', { role: null }],
    ])(
      'a role that is %s is 400 "Invalid role. Must be owner, admin or member" and changes nothing',
      async (_, body) => {
        const bob = await member('b-bob');
        const res = await invalidRequest(() => patch(bob.id, body, org.ownerCookie));
        expect(res.status).toBe(400);
        expect(res.body).toEqual(MEMBER_ERRORS.invalidRole);
        await expectRole(bob, 'member');
      },
    );

    it('a body that is not an object is 400 and changes nothing', async () => {
      const bob = await member('b-bob');
      const res = await invalidRequest(() =>
        t.http
          .patch(`/api/org/members/${bob.id}`)
          .set('Cookie', org.ownerCookie)
          .set('Content-Type', 'application/json')
          .send('["admin"]'),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String) });
      await expectRole(bob, 'member');
    });

    it('the role is checked first: your own id with a bad role is "Invalid role"', async () => {
      const res = await invalidRequest(() => patch(org.owner.id, { role: 'king' }, org.ownerCookie));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(MEMBER_ERRORS.invalidRole);
    });

    it('your own id is 400 "Cannot change your own role" and changes nothing', async () => {
      const res = await patch(org.owner.id, { role: 'member' }, org.ownerCookie);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(MEMBER_ERRORS.cannotChangeOwnRole);
      await expectRole(org.owner, 'owner');
    });

    it('an unknown id is 404 "User not found"', async () => {
      const res = await patch('no-such-user', { role: 'admin' }, org.ownerCookie);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(USER_NOT_FOUND);
    });

    it.each([
      ['a user of another tenant', async () => factory.member((await factory.tenant()).id, { role: 'member' })],
      ['a user in no tenant', () => factory.user()],
    ])('%s is answered as if it did not exist: 404, unchanged', async (_, makeTarget) => {
      const target = await makeTarget();
      const res = await patch(target.id, { role: 'admin' }, org.ownerCookie);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(USER_NOT_FOUND);
      expect(await t.identity.findById(target.id)).toEqual(target);
    });

    it('an admin changing an owner is 403 "Admins cannot change owners", and it comes before the grant check', async () => {
      const admin = await member('m-admin', 'admin');
      const otherOwner = await member('o-owner', 'owner');
      const cookie = await sessionCookie(t, admin);
      for (const role of ['member', 'owner']) {
        const res = await patch(otherOwner.id, { role }, cookie);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(MEMBER_ERRORS.adminCannotChangeOwner);
      }
      await expectRole(otherOwner, 'owner');
    });

    it('an admin granting owner is 403 "Only owners can grant the owner role"', async () => {
      const admin = await member('m-admin', 'admin');
      const bob = await member('b-bob');
      const res = await patch(bob.id, { role: 'owner' }, await sessionCookie(t, admin));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(MEMBER_ERRORS.onlyOwnersGrantOwner);
      await expectRole(bob, 'member');
    });

    it('an identity store failure is 500 {"error":"Failed to update member"}', async () => {
      const bob = await member('b-bob');
      jest.spyOn(t.identity, 'setTenantRole').mockRejectedValueOnce(new Error('identity store down'));
      const res = await patch(bob.id, { role: 'admin' }, org.ownerCookie);
      expect(res.status).toBe(500);
      expect(res.body).toEqual(MEMBER_ERRORS.updateFailed);
      await expectRole(bob, 'member');
    });
  });
});
