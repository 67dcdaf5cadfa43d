/**
 * From a new tenant to its members, then revoking, expiry and the invitation limit, as a portal's
 * users meet them: one walk, each test going on from the one before. Every tenant of the run is
 * named with RUN, and removed at the end.
 */
const { connect, signIn, SUPER_ADMIN_ID } = require('./service');

const RUN = `qa-run-${Date.now().toString(36)}-${process.pid}-`;
const SEVEN_DAYS_SECONDS = 7 * 24 * 3600;
const RATE_LIMITED = { error: 'Too many invitations. Please try again later.' };
/** Addresses of this run only: users outlive the run (DELETE /api/test/tenants keeps them). */
const address = (name) => `${RUN}${name}@example.com`;
const ISO_DATE = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

/** The body of an invite's success: the new pending invitation, with the address as it was sent. */
const createdInvitation = (email, role) => ({
  success: true,
  invitation: { id: expect.any(String), email, role, status: 'pending', expiresAt: ISO_DATE },
});

let service;
/** What the walk has made so far. */
const made = {};

beforeAll(async () => {
  service = await connect();
});
afterEach(async () => {
  expect((await service.testMode.resetClock()).body).toEqual({ offsetSeconds: 0, now: ISO_DATE });
});
afterAll(async () => {
  if (!service) return;
  const removed = await service.testMode.removeTenants(RUN);
  expect([removed.status, removed.body]).toEqual([200, { removed: 1 }]);
  await service.close();
});

/** The owner's invite. */
const invite = (email, role = 'member') =>
  service.http.post('/api/org/invite').set('Cookie', made.ownerCookie).send({ email, role });
const validate = (token) => service.http.get(`/api/invitations/${encodeURIComponent(token)}`);
/** The token of the newest invitation e-mail to `to`. */
async function tokenMailedTo(to) {
  const res = await service.testMode.mailbox(to);
  expect(res.status).toBe(200);
  expect(res.body.emails[0]).toEqual({
    subject: `You are invited to join ${made.tenant.name}`,
    text: expect.stringContaining(res.body.emails[0].link),
    link: expect.stringContaining('/invitations/'),
    token: expect.any(String),
    sentAt: res.body.emails[0].sentAt === null ? null : ISO_DATE,
  });
  return res.body.emails[0].token;
}

test('the super-admin creates a tenant and invites its first owner', async () => {
  made.superAdminCookie = await signIn(service.testMode, { userId: SUPER_ADMIN_ID });
  const created = await service.http
    .post('/api/admin/tenants')
    .set('Cookie', made.superAdminCookie)
    .send({ name: `${RUN}Globex`, type: 'business' });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({
    success: true,
    tenant: {
      id: expect.any(String),
      name: `${RUN}Globex`,
      type: 'business',
      status: 'pending_owner',
      createdAt: ISO_DATE,
    },
  });
  made.tenant = created.body.tenant;

  const invited = await service.http
    .post(`/api/admin/tenants/${made.tenant.id}/invitations`)
    .set('Cookie', made.superAdminCookie)
    .send({ email: address('olivia'), role: 'owner' });
  expect(invited.status).toBe(201);
  expect(invited.body).toEqual(createdInvitation(address('olivia'), 'owner'));
});

test('the owner opens the e-mail, signs in and joins: the tenant is active', async () => {
  const token = await tokenMailedTo(address('olivia'));
  const valid = await validate(token);
  expect(valid.status).toBe(200);
  expect(valid.body).toEqual({
    valid: true,
    email: address('olivia'),
    tenantId: made.tenant.id,
    tenantName: made.tenant.name,
    role: 'owner',
    expiresAt: ISO_DATE,
  });

  // A first sign-in: claims only, no user record yet; the join makes one.
  const olivia = { sub: `${RUN}olivia`, email: address('olivia') };
  const joined = await service.http
    .post(`/api/invitations/${encodeURIComponent(token)}/join`)
    .set('Cookie', await signIn(service.testMode, olivia));
  expect(joined.status).toBe(200);
  expect(joined.body).toEqual({ success: true, tenantId: made.tenant.id, role: 'owner', userId: olivia.sub });

  const tenant = await service.http.get(`/api/admin/tenants/${made.tenant.id}`).set('Cookie', made.superAdminCookie);
  expect(tenant.status).toBe(200);
  expect(tenant.body).toEqual({
    tenant: { ...made.tenant, status: 'active' },
    members: { owner: 1, admin: 0, member: 0 },
    pendingInvitations: 0,
  });
  // A session carries the claims of its sign-in: signed in again, Olivia is the tenant's owner.
  made.ownerCookie = await signIn(service.testMode, { userId: olivia.sub });
});

test('the owner invites a member, who joins from the e-mail; the members list shows both', async () => {
  const invited = await invite(address('mia'));
  expect(invited.status).toBe(200);
  expect(invited.body).toEqual(createdInvitation(address('mia'), 'member'));

  const mia = { sub: `${RUN}mia`, email: address('mia') };
  const joined = await service.http
    .post(`/api/invitations/${encodeURIComponent(await tokenMailedTo(address('mia')))}/join`)
    .set('Cookie', await signIn(service.testMode, mia));
  expect(joined.status).toBe(200);
  expect(joined.body).toEqual({ success: true, tenantId: made.tenant.id, role: 'member', userId: mia.sub });

  const members = await service.http.get('/api/org/members').set('Cookie', made.ownerCookie);
  expect(members.status).toBe(200);
  // By e-mail: mia's sorts before olivia's.
  expect(members.body).toEqual({
    members: [
      { id: mia.sub, email: address('mia'), role: 'member' },
      { id: `${RUN}olivia`, email: address('olivia'), role: 'owner' },
    ],
  });
});

test('the owner revokes an invitation: its link answers 404 INVALID', async () => {
  const { body } = await invite(address('revoked'));
  const revoked = await service.http
    .delete(`/api/org/invitations/${body.invitation.id}`)
    .set('Cookie', made.ownerCookie);
  expect([revoked.status, revoked.body]).toEqual([200, { success: true }]);
  const res = await validate(await tokenMailedTo(address('revoked')));
  expect([res.status, res.body]).toEqual([404, { valid: false, error: 'INVALID' }]);
});

test('an invitation expires once the clock passes its 7 days', async () => {
  const { body } = await invite(address('late'));
  const token = await tokenMailedTo(address('late'));
  expect(token).toBe(body.invitation.id);
  expect((await validate(token)).status).toBe(200);

  const moved = await service.testMode.moveClock(SEVEN_DAYS_SECONDS + 1);
  expect([moved.status, moved.body]).toEqual([200, { offsetSeconds: SEVEN_DAYS_SECONDS + 1, now: ISO_DATE }]);
  const res = await validate(token);
  expect([res.status, res.body]).toEqual([400, { valid: false, error: 'EXPIRED' }]);
});

test('past the invitation limit the owner is refused 429; once the clock has moved past Retry-After, invited again', async () => {
  expect((await service.testMode.clearRateLimits()).status).toBe(204);
  const quota = await service.http.get('/api/org/invite/quota').set('Cookie', made.ownerCookie);
  expect(quota.status).toBe(200);
  const { limit } = quota.body;
  expect(quota.body).toEqual({ limit, remaining: limit, resetAt: null });

  for (let n = 1; n <= limit; n++) {
    const res = await invite(address(`limit-${n}`));
    expect([res.status, res.headers['ratelimit-remaining']]).toEqual([200, String(limit - n)]);
  }
  const refused = await invite(address('limit-over'));
  expect([refused.status, refused.body]).toEqual([429, RATE_LIMITED]);
  const retryAfter = Number(refused.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);

  expect((await service.testMode.moveClock(retryAfter)).status).toBe(200);
  const again = await invite(address('limit-after'));
  expect(again.status).toBe(200);
  expect(again.body).toEqual(createdInvitation(address('limit-after'), 'member'));
});

test('DELETE /api/test/rate-limits makes the quota whole again', async () => {
  expect((await invite(address('spent'))).status).toBe(200);
  const cleared = await service.testMode.clearRateLimits();
  expect([cleared.status, cleared.text]).toEqual([204, '']);
  const quota = await service.http.get('/api/org/invite/quota').set('Cookie', made.ownerCookie);
  expect(quota.status).toBe(200);
  expect(quota.body).toEqual({ limit: quota.body.limit, remaining: quota.body.limit, resetAt: null });
});
