import { InvitationEntity } from '../src/database/entities';
import { sessionCookie } from './support/factories';
import { PAGING_ERRORS, PEOPLE_ERRORS, UNAUTHORIZED } from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

const DAY = 24 * 3600 * 1000;

interface Shown {
  kind: 'member' | 'invitation';
  id: string | null;
  email: string;
  role: string | null;
  status: string;
  expiresAt?: string;
}

/** The rule's order, computed apart from the service: e-mail by UTF-8 bytes (code points), then kind, then id. */
const inListOrder = (people: Shown[]) =>
  [...people].sort(
    (a, b) =>
      Buffer.compare(Buffer.from(a.email), Buffer.from(b.email)) ||
      Buffer.compare(Buffer.from(a.kind), Buffer.from(b.kind)) ||
      Buffer.compare(Buffer.from(a.id ?? ''), Buffer.from(b.id ?? '')),
  );

/** GET /api/org/people: the members and open invitations of the caller's organisation, in one list. */
describe('organisation people', () => {
  // Each test gets its own tenant, whose owner's e-mail sorts first.
  const { t, factory, org, notOrgUsers } = useOrganisationSuite({ ownerSortsFirst: true });

  /** A member of the test's tenant whose e-mail starts with `name` (so that the test picks the order). */
  const member = (name: string, role = 'member', email = `${name}-${org.sequence++}@example.com`) =>
    factory.member(org.tenant.id, { role, email });
  const invitation = (name: string, overrides: Partial<InvitationEntity> = {}) =>
    factory.invitation({
      tenantId: org.tenant.id,
      email: `${name}-${org.sequence++}@example.com`,
      invitedBy: org.owner.id,
      ...overrides,
    });
  const past = () => new Date(Date.now() - DAY);

  /** As the API shows a member: the e-mail as the identity store gives it back (Cognito lower-cases). */
  const shownMember = async (user: TestUser): Promise<Shown> => ({
    kind: 'member',
    id: user.id,
    email: (await t.identity.findById(user.id))!.email,
    role: user.role,
    status: 'active',
  });
  const shownInvitation = (row: InvitationEntity, status: string = row.status, id: string | null = row.id): Shown => ({
    kind: 'invitation',
    id,
    email: row.email,
    role: row.role,
    status,
    expiresAt: row.expiresAt.toISOString(),
  });
  const storedStatus = async (id: string) =>
    (await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id })).status;

  describe('GET /api/org/people', () => {
    const list = (query = '', cookie: string | null = org.ownerCookie) => {
      const request = t.http.get(`/api/org/people${query}`);
      return cookie ? request.set('Cookie', cookie) : request;
    };

    /** Every page at `limit`, following nextCursor; fails rather than loop. */
    const allPages = async (limit: number, cookie = org.ownerCookie): Promise<Shown[][]> => {
      const pages: Shown[][] = [];
      let cursor: string | undefined;
      do {
        const res = await list(`?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, cookie);
        expect(res.status).toBe(200);
        pages.push(res.body.people);
        cursor = res.body.nextCursor;
      } while (cursor && pages.length < 50);
      expect(cursor).toBeUndefined();
      return pages;
    };

    it('200 {people:[{kind,id,email,role,status,expiresAt?}]}: members active, invitations pending or expired, no others', async () => {
      const bob = await member('b-bob', 'admin');
      const pending = await invitation('c-pending', { role: 'admin' });
      const expired = await invitation('d-expired', { status: 'expired', expiresAt: past() });
      await invitation('e-accepted', { status: 'accepted' });
      await invitation('f-revoked', { status: 'revoked' });
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        people: [
          await shownMember(org.owner),
          await shownMember(bob),
          shownInvitation(pending),
          shownInvitation(expired),
        ],
      });
      expect(res.body.people[0]).not.toHaveProperty('expiresAt');
    });

    it('the status shown is the effective one: a pending invitation past its expiresAt is expired; the row is left as it is', async () => {
      const late = await invitation('b-late', { expiresAt: past() });
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ people: [await shownMember(org.owner), shownInvitation(late, 'expired')] });
      expect(await storedStatus(late.id)).toBe('pending');
    });

    it('members may call it, but the invitation ids are shown only to owners and admins: a member sees id null', async () => {
      const admin = await member('b-admin', 'admin');
      const plain = await member('c-member', 'member');
      const open = await invitation('d-invited');
      const everyone = [await shownMember(org.owner), await shownMember(admin), await shownMember(plain)];
      for (const [caller, id] of [
        [org.owner, open.id],
        [admin, open.id],
        [plain, null],
      ] as const) {
        const res = await list('', await sessionCookie(t, caller));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ people: [...everyone, shownInvitation(open, 'pending', id)] });
      }
    });

    it('sorted by e-mail (code points: case, accents, underscores included), then kind (invitation before member), then id', async () => {
      const domain = `@p${org.sequence++}.example`;
      const users = [
        await member('', 'member', `b.x${domain}`),
        await member('', 'member', `B_X${domain}`),
        await member('', 'member', `é${domain}`),
        await member('', 'member', `shared${domain}`),
      ];
      await invitation('', { email: `shared${domain}` });
      await invitation('', { email: `shared${domain}` });
      // Invited through the API, as a client would: the service stores the address lower-cased.
      const invited = [];
      for (const email of [`b_w${domain}`, `E${domain}`, `C.y${domain}`, `Ézra${domain}`]) {
        const res = await t.http.post('/api/org/invite').set('Cookie', org.ownerCookie).send({ email, role: 'member' });
        expect(res.status).toBe(200);
        invited.push(res.body.invitation);
      }
      const rows = await t.dataSource.getRepository(InvitationEntity).findBy({ tenantId: org.tenant.id });
      const expected = inListOrder([
        await shownMember(org.owner),
        ...(await Promise.all(users.map(shownMember))),
        ...rows.map((row) => shownInvitation(row)),
      ]);
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ people: expected });
      // The shared address: both invitations, then the member.
      expect(
        res.body.people
          .filter((person: Shown) => person.email === `shared${domain}`)
          .map((person: Shown) => person.kind),
      ).toEqual(['invitation', 'invitation', 'member']);
      expect(rows.map((row) => row.id)).toEqual(expect.arrayContaining(invited.map((row) => row.id)));
    });

    it.each([
      ['an owner', 'owner'],
      ['a member', 'member'],
    ])(
      'paged like the others: %s paging by 1, 2 and 3 through the whole list gets the unpaged list, nextCursor absent on the last page',
      async (_, role) => {
        const caller = role === 'owner' ? org.owner : await member('a-caller', role);
        const cookie = await sessionCookie(t, caller);
        await member('b');
        await invitation('b');
        await invitation('c', { status: 'expired', expiresAt: past() });
        const shared = `d-shared-${org.sequence++}@example.com`;
        await member('', 'member', shared);
        for (let i = 0; i < 3; i++) await invitation('', { email: shared });
        await invitation('e', { status: 'accepted' });
        const unpaged = await list('', cookie);
        expect(unpaged.status).toBe(200);
        expect(unpaged.body.people).toHaveLength(8 + (role === 'owner' ? 0 : 1));
        expect(unpaged.body.nextCursor).toBeUndefined();
        for (const limit of [1, 2, 3]) {
          const pages = await allPages(limit, cookie);
          expect(pages.flat()).toEqual(unpaged.body.people);
        }
      },
    );

    it('limit defaults to 50', async () => {
      for (let i = 0; i < 25; i++) await member(`m${String(i).padStart(2, '0')}`);
      for (let i = 0; i < 25; i++) await invitation(`n${String(i).padStart(2, '0')}`);
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body.people).toHaveLength(50);
      expect(res.body.nextCursor).toEqual(expect.any(String));
      const rest = await list(`?cursor=${res.body.nextCursor}`);
      expect(rest.body).toEqual({
        people: [expect.objectContaining({ kind: 'invitation', email: expect.stringMatching(/^n24-/) })],
      });
    });

    it('paging through the list while it changes never repeats or skips a row that stayed put', async () => {
      const b = await member('b');
      const c = await invitation('c');
      const d = await member('d');
      const e = await invitation('e');
      const f = await member('f');
      const g = await invitation('g');
      const first = await list('?limit=3');
      expect(first.body).toEqual({
        people: [await shownMember(org.owner), await shownMember(b), shownInvitation(c)],
        nextCursor: expect.any(String),
      });
      // Meanwhile: rows join before the cursor and after it; one after it leaves, one after it is revoked, one is accepted.
      await member('a0');
      await invitation('b0');
      const dd = await invitation('d0');
      const ee = await member('e0');
      await t.testIdentity.updateUser(d.id, { tenantId: null, role: null });
      expect((await t.http.delete(`/api/org/invitations/${e.id}`).set('Cookie', org.ownerCookie)).status).toBe(200);
      await t.dataSource.getRepository(InvitationEntity).update({ id: g.id }, { status: 'accepted' });
      const rest = await list(`?limit=10&cursor=${first.body.nextCursor}`);
      expect(rest.status).toBe(200);
      expect(rest.body).toEqual({ people: [shownInvitation(dd), await shownMember(ee), await shownMember(f)] });
    });

    it("a caller only ever sees its own tenant: another tenant's members and invitations are not listed", async () => {
      const other = await factory.tenant();
      await factory.member(other.id, { role: 'member', email: `b-elsewhere-${org.sequence++}@example.com` });
      await factory.invitation({ tenantId: other.id, email: `b-invited-elsewhere-${org.sequence++}@example.com` });
      await factory.user({ email: `b-loose-${org.sequence++}@example.com` });
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ people: [await shownMember(org.owner)] });
    });

    it('no session is 401 {"error":"Unauthorized"}', async () => {
      const res = await list('', null);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it.each(notOrgUsers)(
      'a caller who is %s is 403 "Only organisation users can access this"',
      async (_, makeCaller) => {
        const res = await list('', await sessionCookie(t, await makeCaller()));
        expect(res.status).toBe(403);
        expect(res.body).toEqual(PEOPLE_ERRORS.notOrgUser);
      },
    );

    it('the caller is confirmed against the identity store: once removed from the tenant, the old token gets 403', async () => {
      const caller = await member('m-caller');
      const cookie = await sessionCookie(t, caller);
      await t.testIdentity.updateUser(caller.id, { tenantId: null, role: null });
      const res = await list('', cookie);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(PEOPLE_ERRORS.notOrgUser);
    });

    it.each(['0', '101', '-1', '1.5', 'ten', '', '1e1'])(
      'limit=%p is 400 with a clear message, and changes nothing',
      async (limit) => {
        const open = await invitation('b');
        const res = await invalidRequest(() => list(`?limit=${encodeURIComponent(limit)}`));
        expect(res.status).toBe(400);
        expect(res.body).toEqual(PAGING_ERRORS.invalidLimit);
        expect(await storedStatus(open.id)).toBe('pending');
      },
    );

    const key = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    it.each([
      ['not base64url', 'not a cursor!'],
      ['a JSON object', key({ email: 'a' })],
      ['a members-list key (two parts)', key(['a@example.com', 'user-1'])],
      ['a key of an unknown kind', key(['a@example.com', 'user', 'user-1'])],
      ['empty', ''],
      ['5,000 characters', 'A'.repeat(5_000)],
    ])('a cursor that is %s is 400 "Invalid cursor", and changes nothing', async (_, cursor) => {
      const open = await invitation('b', { expiresAt: past() });
      const res = await list(`?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(PAGING_ERRORS.invalidCursor);
      expect(await storedStatus(open.id)).toBe('pending');
    });

    it('a member giving an invitation key as cursor: 400 "Invalid cursor" (it could find a token by bisecting); an owner may', async () => {
      const open = await invitation('b');
      const cursor = key([open.email, 'invitation', open.id.slice(0, 8)]);
      const plain = await member('c-member');
      const refused = await list(`?cursor=${cursor}`, await sessionCookie(t, plain));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(PAGING_ERRORS.invalidCursor);
      const allowed = await list(`?cursor=${cursor}`);
      expect(allowed.status).toBe(200);
      expect(allowed.body).toEqual({ people: [shownInvitation(open), await shownMember(plain)] });
    });

    it('an identity store failure is 500 {"error":"Failed to list people"}', async () => {
      jest.spyOn(t.identity, 'listTenantMembers').mockRejectedValueOnce(new Error('identity store down'));
      const res = await list();
      expect(res.status).toBe(500);
      expect(res.body).toEqual(PEOPLE_ERRORS.listFailed);
    });
  });
});
