import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { InvitationsStore } from '../src/invitations/invitations.store';
import { factories } from './support/factories';
import { INVITATION_GET, INVITATION_POST } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';
import { invalidRequest } from './support/documented-http';

const DAY = 24 * 3600 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY);

/** Paths with no token at all, or one of white space only: rule 1 of both endpoints. */
const EMPTY_TOKEN_PATHS = [
  '/api/invitations',
  '/api/invitations/',
  '/api/invitations/%20%20',
  '/api/invitations/%09%0A',
];

/** Tokens that name no invitation: rule 2. The pending invitation of each test must stay untouched. */
const UNKNOWN_TOKENS: [string, string][] = [
  ['an unknown UUID', '0b6f1d1e-3c1a-4d4e-9a53-6f7f2b2f5a10'],
  ['a token that is not UUID-shaped', 'not-a-uuid'],
  ['an SQL injection', "' OR 1=1 --"],
  ['an SQL injection matching any pending row', "x' OR status = 'pending"],
  ['a path traversal', '../../etc/passwd'],
  ['a 5,000-character token', 'a'.repeat(5_000)],
  ['unicode', 'Zürich-🚀-组织'],
  ['a NUL character', 'abc\u0000def'],
];

describe('invitations (spec 4.1, 4.2, section 3)', () => {
  let t: TestApp;
  let factory: ReturnType<typeof factories>;

  beforeAll(async () => {
    t = await createTestApp();
    factory = factories(t);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.dataSource.getRepository(InvitationEntity).clear();
    await t.dataSource.getRepository(TenantEntity).clear();
  });
  afterEach(() => jest.restoreAllMocks());

  const stored = (id: string) => t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id });
  const path = (token: string) => `/api/invitations/${encodeURIComponent(token)}`;
  /** As an operator or QA would: a naive UTC timestamp written with raw SQL. */
  const expireInSql = (id: string) =>
    t.dataSource.query(`UPDATE tenant_invitations SET expires_at = '2000-01-01 00:00:00' WHERE id = ?`, [id]);

  describe('GET /api/invitations/{token}', () => {
    it('rule 5: a pending invitation before expiresAt is 200 with the spec fields', async () => {
      const tenant = await factory.tenant({ name: 'Acme Ltd' });
      const invitation = await factory.invitation({ tenantId: tenant.id, role: 'admin' });
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        valid: true,
        email: invitation.email,
        tenantId: tenant.id,
        tenantName: 'Acme Ltd',
        role: 'admin',
        expiresAt: invitation.expiresAt.toISOString(),
      });
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('rule 5: the tenant name is shown as stored, unicode included', async () => {
      const tenant = await factory.tenant({ name: 'Zürich 🚀 组织' });
      const invitation = await factory.invitation({ tenantId: tenant.id });
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(200);
      expect(res.body.tenantName).toBe('Zürich 🚀 组织');
    });

    it('rule 5: tenantName is "Organisation" when the tenant is absent', async () => {
      const invitation = await factory.invitation();
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ valid: true, tenantId: invitation.tenantId, tenantName: 'Organisation' });
    });

    it.each([
      ['null', null],
      ['empty', ''],
    ])('rule 5: tenantName is "Organisation" when the tenant name is %s', async (_, name) => {
      const tenant = await factory.tenant({ name });
      const invitation = await factory.invitation({ tenantId: tenant.id });
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(200);
      expect(res.body.tenantName).toBe('Organisation');
    });

    it('rule 5: expiry is judged by expiresAt: a stored status of expired before expiresAt is valid, and unchanged', async () => {
      const invitation = await factory.invitation({ status: 'expired', expiresAt: inDays(1) });
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ valid: true, expiresAt: invitation.expiresAt.toISOString() });
      expect((await stored(invitation.id)).status).toBe('expired');
    });

    it('rule 5: GET is repeatable and changes nothing', async () => {
      const invitation = await factory.invitation();
      for (let i = 0; i < 2; i++) expect((await t.http.get(path(invitation.id))).status).toBe(200);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it.each(EMPTY_TOKEN_PATHS)('rule 1: an empty token (%s) → 400 INVALID', async (emptyPath) => {
      const res = await t.http.get(emptyPath);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_GET.invalid);
    });

    it.each(UNKNOWN_TOKENS)('rule 2: %s → 404 INVALID, never a 500', async (_, token) => {
      const bystander = await factory.invitation();
      const res = await t.http.get(path(token));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(INVITATION_GET.invalid);
      expect(await stored(bystander.id)).toEqual(bystander);
    });

    it.each([
      ['in upper case', (id: string) => id.toUpperCase()],
      ['with a trailing space', (id: string) => `${id} `],
    ])('rule 2: the id of an invitation %s is not its token → 404 INVALID', async (_, variant) => {
      const invitation = await factory.invitation();
      const res = await t.http.get(path(variant(invitation.id)));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(INVITATION_GET.invalid);
    });

    it('bad input: a malformed percent-encoding in the token is a 400 JSON error', async () => {
      const res = await t.http.get('/api/invitations/%E0%A4%A');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String) });
    });

    it('rule 2: an invitation that cannot be loaded is 404 INVALID', async () => {
      const invitation = await factory.invitation();
      jest.spyOn(t.app.get(InvitationsStore), 'findById').mockRejectedValue(new Error('connection lost'));
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(INVITATION_GET.invalid);
    });

    it('rule 3: status accepted → 400 ALREADY_USED, still accepted', async () => {
      const invitation = await factory.invitation({ status: 'accepted' });
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_GET.alreadyUsed);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('rule 3 before rule 4: accepted and past expiresAt → 400 ALREADY_USED, still accepted', async () => {
      const invitation = await factory.invitation({ status: 'accepted', expiresAt: inDays(-1) });
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_GET.alreadyUsed);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('rule 4: pending and past expiresAt → status set to expired, then 400 EXPIRED', async () => {
      const invitation = await factory.invitation({ expiresAt: new Date(Date.now() - 1000) });
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_GET.expired);
      expect(await stored(invitation.id)).toEqual({ ...invitation, status: 'expired' });
    });

    it("rule 4: expires_at set to '2000-01-01 00:00:00' with raw SQL reads as expired", async () => {
      const invitation = await factory.invitation();
      await expireInSql(invitation.id);
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_GET.expired);
      const row = await stored(invitation.id);
      expect(row.status).toBe('expired');
      expect(row.expiresAt.toISOString()).toBe('2000-01-01T00:00:00.000Z');
    });

    it('rule 4: an invitation already stored as expired and past expiresAt → 400 EXPIRED, still expired', async () => {
      const invitation = await factory.invitation({ status: 'expired', expiresAt: inDays(-1) });
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_GET.expired);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('rule 6: the tenant lookup failing → 500 {valid:false, error:"INVALID"}', async () => {
      const invitation = await factory.invitation();
      jest.spyOn(t.app.get(InvitationsStore), 'findTenantName').mockRejectedValue(new Error('connection lost'));
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(500);
      expect(res.body).toEqual(INVITATION_GET.invalid);
    });

    it('rule 6: storing the expired status failing → 500 {valid:false, error:"INVALID"}', async () => {
      const invitation = await factory.invitation({ expiresAt: inDays(-1) });
      jest.spyOn(t.app.get(InvitationsStore), 'markExpired').mockRejectedValue(new Error('connection lost'));
      const res = await t.http.get(path(invitation.id));
      expect(res.status).toBe(500);
      expect(res.body).toEqual(INVITATION_GET.invalid);
      expect((await stored(invitation.id)).status).toBe('pending');
    });
  });

  describe('POST /api/invitations/{token}', () => {
    it('rule 5: a pending invitation before expiresAt is accepted: 200 {success, tenantId, role}', async () => {
      const tenant = await factory.tenant();
      const invitation = await factory.invitation({ tenantId: tenant.id, role: 'admin' });
      const res = await t.http.post(path(invitation.id));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, tenantId: tenant.id, role: 'admin' });
      expect(await stored(invitation.id)).toEqual({ ...invitation, status: 'accepted' });
    });

    it('rule 5: expiry is judged by expiresAt: a stored status of expired before expiresAt is accepted', async () => {
      const invitation = await factory.invitation({ status: 'expired', expiresAt: inDays(1) });
      const res = await t.http.post(path(invitation.id));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, tenantId: invitation.tenantId, role: invitation.role });
      expect((await stored(invitation.id)).status).toBe('accepted');
    });

    it('rule 5: no body is read: an array, extra fields or a form body are ignored', async () => {
      for (const send of [
        (token: string) => invalidRequest(t.http.post(path(token)).send([{ status: 'pending' }])),
        (token: string) =>
          invalidRequest(t.http.post(path(token)).send({ tenantId: 'other', role: 'owner', status: 'pending' })),
        (token: string) => invalidRequest(t.http.post(path(token)).type('form').send('role=owner')),
      ]) {
        const invitation = await factory.invitation({ role: 'member' });
        const res = await send(invitation.id);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, tenantId: invitation.tenantId, role: 'member' });
        expect(await stored(invitation.id)).toEqual({ ...invitation, status: 'accepted' });
      }
    });

    it('bad input: a malformed JSON body is a 400 JSON error and changes nothing', async () => {
      const invitation = await factory.invitation();
      const res = await invalidRequest(
        t.http.post(path(invitation.id)).set('Content-Type', 'application/json').send('{"a":'),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Malformed JSON body' });
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('rule 5: accepting is atomic: of 12 parallel POSTs exactly one is 200, every other ALREADY_USED', async () => {
      const invitation = await factory.invitation();
      const responses = await Promise.all(Array.from({ length: 12 }, () => t.http.post(path(invitation.id))));
      const accepted = responses.filter((res) => res.status === 200);
      expect(accepted).toHaveLength(1);
      expect(accepted[0].body).toEqual({ success: true, tenantId: invitation.tenantId, role: invitation.role });
      for (const res of responses.filter((other) => other !== accepted[0])) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(INVITATION_POST.alreadyUsed);
      }
      expect((await stored(invitation.id)).status).toBe('accepted');
    });

    it('rule 5: accepting is atomic even when all 10 parallel POSTs have read the invitation as pending', async () => {
      const invitation = await factory.invitation();
      const parallel = 10;
      // Hold every request after its read until all have read: the update alone must pick the winner.
      const store = t.app.get(InvitationsStore);
      const findById = store.findById.bind(store);
      let reading = parallel;
      let allRead!: () => void;
      const barrier = new Promise<void>((resolve) => (allRead = resolve));
      jest.spyOn(store, 'findById').mockImplementation(async (id) => {
        const row = await findById(id);
        if (--reading === 0) allRead();
        await barrier;
        return row;
      });
      const responses = await Promise.all(Array.from({ length: parallel }, () => t.http.post(path(invitation.id))));
      expect(responses.map((res) => res.status).sort((a, b) => a - b)).toEqual([200, ...Array(parallel - 1).fill(400)]);
      expect(responses.filter((res) => res.status === 400).map((res) => res.body)).toEqual(
        Array(parallel - 1).fill(INVITATION_POST.alreadyUsed),
      );
      expect((await stored(invitation.id)).status).toBe('accepted');
    });

    it.each(EMPTY_TOKEN_PATHS)('rule 1: an empty token (%s) → 400 INVALID', async (emptyPath) => {
      const res = await t.http.post(emptyPath);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_POST.invalid);
    });

    it.each(UNKNOWN_TOKENS)('rule 2: %s → 404 INVALID, never a 500, nothing accepted', async (_, token) => {
      const bystander = await factory.invitation();
      const res = await t.http.post(path(token));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(INVITATION_POST.invalid);
      expect(await stored(bystander.id)).toEqual(bystander);
    });

    it('rule 2: the id of an invitation in upper case is not its token → 404 INVALID, nothing accepted', async () => {
      const invitation = await factory.invitation();
      const res = await t.http.post(path(invitation.id.toUpperCase()));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(INVITATION_POST.invalid);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('bad input: a malformed percent-encoding in the token is a 400 JSON error', async () => {
      const res = await t.http.post('/api/invitations/%E0%A4%A');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String) });
    });

    it('rule 2: an invitation that cannot be loaded is 404 INVALID', async () => {
      const invitation = await factory.invitation();
      const store = t.app.get(InvitationsStore);
      // On MySQL the accept is tried with its read in one round trip first: that round trip fails too.
      jest.spyOn(store, 'acceptAtOnce').mockRejectedValue(new Error('connection lost'));
      jest.spyOn(store, 'findById').mockRejectedValue(new Error('connection lost'));
      const res = await t.http.post(path(invitation.id));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(INVITATION_POST.invalid);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('rule 3: status accepted → 400 ALREADY_USED, still accepted', async () => {
      const invitation = await factory.invitation({ status: 'accepted' });
      const res = await t.http.post(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_POST.alreadyUsed);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('rule 3 before rule 4: accepted and past expiresAt → 400 ALREADY_USED, still accepted', async () => {
      const invitation = await factory.invitation({ status: 'accepted', expiresAt: inDays(-1) });
      const res = await t.http.post(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_POST.alreadyUsed);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('rule 4: pending and past expiresAt → 400 EXPIRED, and the status is not updated', async () => {
      const invitation = await factory.invitation({ expiresAt: new Date(Date.now() - 1000) });
      const res = await t.http.post(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_POST.expired);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it("rule 4: expires_at set to '2000-01-01 00:00:00' with raw SQL → 400 EXPIRED, still pending", async () => {
      const invitation = await factory.invitation();
      await expireInSql(invitation.id);
      const res = await t.http.post(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_POST.expired);
      expect((await stored(invitation.id)).status).toBe('pending');
    });

    it('rule 4: stored as expired and past expiresAt → 400 EXPIRED, still expired', async () => {
      const invitation = await factory.invitation({ status: 'expired', expiresAt: inDays(-1) });
      const res = await t.http.post(path(invitation.id));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVITATION_POST.expired);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('rule 6: the update failing → 500 {success:false, error:"INTERNAL_ERROR"}, still pending', async () => {
      const invitation = await factory.invitation();
      const store = t.app.get(InvitationsStore);
      jest.spyOn(store, 'acceptAtOnce').mockRejectedValue(new Error('connection lost'));
      jest.spyOn(store, 'accept').mockRejectedValue(new Error('connection lost'));
      const res = await t.http.post(path(invitation.id));
      expect(res.status).toBe(500);
      expect(res.body).toEqual(INVITATION_POST.internal);
      expect(await stored(invitation.id)).toEqual(invitation);
    });
  });

  describe('section 3: invitation status transitions', () => {
    it('pending → accepted by POST before expiresAt; then GET and POST are ALREADY_USED and it stays accepted', async () => {
      const invitation = await factory.invitation();
      expect((await t.http.post(path(invitation.id))).status).toBe(200);
      const get = await t.http.get(path(invitation.id));
      expect([get.status, get.body]).toEqual([400, INVITATION_GET.alreadyUsed]);
      const post = await t.http.post(path(invitation.id));
      expect([post.status, post.body]).toEqual([400, INVITATION_POST.alreadyUsed]);
      expect(await stored(invitation.id)).toEqual({ ...invitation, status: 'accepted' });
    });

    it('pending past expiresAt: POST leaves it pending, GET then stores expired; both answer EXPIRED', async () => {
      const invitation = await factory.invitation({ expiresAt: inDays(-1) });
      const post = await t.http.post(path(invitation.id));
      expect([post.status, post.body]).toEqual([400, INVITATION_POST.expired]);
      expect((await stored(invitation.id)).status).toBe('pending');
      const get = await t.http.get(path(invitation.id));
      expect([get.status, get.body]).toEqual([400, INVITATION_GET.expired]);
      expect((await stored(invitation.id)).status).toBe('expired');
      const again = await t.http.post(path(invitation.id));
      expect([again.status, again.body]).toEqual([400, INVITATION_POST.expired]);
      expect((await stored(invitation.id)).status).toBe('expired');
    });
  });

  describe('when the database fails', () => {
    let broken: TestApp;

    beforeAll(async () => {
      broken = await createTestApp();
    });
    afterAll(() => broken.close());

    it('GET rule 6: the tenants table gone → 500 {valid:false, error:"INVALID"}', async () => {
      const invitation = await factories(broken).invitation();
      await broken.dataSource.query('DROP TABLE tenants');
      const res = await broken.http.get(path(invitation.id));
      expect(res.status).toBe(500);
      expect(res.body).toEqual(INVITATION_GET.invalid);
    });

    it('rule 2: the invitations table gone, the invitation cannot be loaded → 404 INVALID on GET and POST', async () => {
      const invitation = await factories(broken).invitation();
      await broken.dataSource.query('DROP TABLE tenant_invitations');
      const get = await broken.http.get(path(invitation.id));
      expect([get.status, get.body]).toEqual([404, INVITATION_GET.invalid]);
      const post = await broken.http.post(path(invitation.id));
      expect([post.status, post.body]).toEqual([404, INVITATION_POST.invalid]);
    });
  });
});
