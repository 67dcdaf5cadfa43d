import { HttpException } from '@nestjs/common';
import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { InvitationsService } from '../src/invitations/invitations.service';
import { InvitationsStore } from '../src/invitations/invitations.store';
import { factories } from './support/factories';
import { headingOf, PAGE_TEXT, pagePath, visibleText } from './support/invitation-page';
import { INVITATION_POST } from './support/spec-bodies';
import { invalidRequest } from './support/documented-http';
import { createTestApp, TestApp } from './support/test-app';

const DAY = 24 * 3600 * 1000;
const FORM = 'application/x-www-form-urlencoded';

/**
 * The page that the invitation link opens, over HTTP (test/invitation-page.browser-spec.ts
 * drives it in Chromium). Identity-store neutral: run on the local store only, on each database.
 */
describe('invitation page', () => {
  let t: TestApp;
  let factory: ReturnType<typeof factories>;

  beforeAll(async () => {
    t = await createTestApp();
    factory = factories(t);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const stored = (id: string) => t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id });
  const pendingIn = async (
    tenant: Partial<TenantEntity> = { name: 'Acme' },
    invitation: Partial<InvitationEntity> = {},
  ) => {
    const row = await factory.tenant(tenant);
    return { tenant: row, invitation: await factory.invitation({ tenantId: row.id, ...invitation }) };
  };
  const pastExpiry = { expiresAt: new Date(Date.now() - DAY) };
  /** The Accept button without JavaScript: a form with no fields, posted to the page's own URL. */
  const submitForm = (token: string) => t.http.post(pagePath(token)).set('Content-Type', FORM).send('');

  describe('GET /invitations/{token}', () => {
    it('a valid invitation: organisation, invited address, role, expiry and the Accept button; the row stays pending', async () => {
      const { invitation } = await pendingIn(
        { name: 'Acme Ltd' },
        { role: 'admin', expiresAt: new Date('2036-05-04T03:02:01.000Z') },
      );
      const res = await t.http.get(pagePath(invitation.id));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(headingOf(res.text)).toBe(PAGE_TEXT.invited('Acme Ltd'));
      expect(visibleText(res.text)).toContain(
        `Organisation Acme Ltd Invited address ${invitation.email} Role admin Expires 4 May 2036 at 03:02 UTC ${PAGE_TEXT.acceptButton}`,
      );
      expect(res.text).toContain('<form method="post" action="">');
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('a tenant without a name, or no tenant at all, shows "Organisation"', async () => {
      const { invitation } = await pendingIn({ name: null });
      const orphan = await factory.invitation();
      for (const id of [invitation.id, orphan.id]) {
        const res = await t.http.get(pagePath(id));
        expect(res.status).toBe(200);
        expect(headingOf(res.text)).toBe(PAGE_TEXT.invited('Organisation'));
      }
    });

    it('an organisation named with markup is shown as text, never as markup', async () => {
      const name = `<script>alert("pwned")</script><img src=x onerror="alert(1)">`;
      const { invitation } = await pendingIn({ name });
      const res = await t.http.get(pagePath(invitation.id));
      expect(res.status).toBe(200);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.invited(name));
      expect(res.text).not.toContain('<img');
      expect(res.text.match(/<script[ >]/g)).toHaveLength(1);
    });

    it('an accepted invitation: 400, the already-used message, no button; the row is unchanged', async () => {
      const { invitation } = await pendingIn({}, { status: 'accepted' });
      const res = await t.http.get(pagePath(invitation.id));
      expect(res.status).toBe(400);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.alreadyUsed);
      expect(res.text).not.toContain('<button');
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('a pending invitation past expiresAt: 400, the expired message, and the row is stored expired (spec 4.1 rule 4)', async () => {
      const { invitation } = await pendingIn({}, pastExpiry);
      const res = await t.http.get(pagePath(invitation.id));
      expect(res.status).toBe(400);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.expired);
      expect(res.text).not.toContain('<button');
      expect((await stored(invitation.id)).status).toBe('expired');
    });

    it.each([
      ['an unknown token', '0b6f1d1e-3c1a-4d4e-9a53-6f7f2b2f5a10', 404],
      ['an SQL injection', "' OR 1=1 --", 404],
      ['a token of white space', '  ', 400],
    ])('%s: the not-valid message, no button', async (_, token, status) => {
      const { invitation } = await pendingIn();
      const res = await t.http.get(pagePath(token));
      expect(res.status).toBe(status);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.invalid);
      expect(res.text).not.toContain('<button');
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('the spec 500 (the tenant cannot be read) is "Something went wrong, try again", not "not valid"', async () => {
      const { invitation } = await pendingIn();
      jest.spyOn(t.app.get(InvitationsStore), 'findTenantName').mockRejectedValueOnce(new Error('connection lost'));
      const res = await t.http.get(pagePath(invitation.id));
      expect(res.status).toBe(500);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.failed);
      expect(visibleText(res.text)).toContain('Try again');
    });

    it('a raw error from the service (no spec body) is "Something went wrong, try again" too', async () => {
      jest.spyOn(t.app.get(InvitationsService), 'validate').mockRejectedValueOnce(new Error('unexpected'));
      const res = await t.http.get(pagePath('any-token'));
      expect(res.status).toBe(500);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.failed);
    });

    it("is safe: a nonce CSP that the page's one script and style carry, no referrer, no caching, no indexing", async () => {
      const { invitation } = await pendingIn();
      const [first, second] = [await t.http.get(pagePath(invitation.id)), await t.http.get(pagePath(invitation.id))];
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(first.headers['content-security-policy'])?.[1];
      expect(nonce).toBeDefined();
      expect(first.headers).toMatchObject({
        'content-security-policy':
          `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src ` +
          `'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
        'x-robots-tag': 'noindex',
        'x-content-type-options': 'nosniff',
      });
      expect(first.text).toContain(`<script nonce="${nonce}">`);
      expect(first.text).toContain(`<style nonce="${nonce}">`);
      expect(second.headers['content-security-policy']).not.toContain(nonce);
    });

    it('the API answers keep their own CSP, which allows nothing', async () => {
      const res = await t.http.get('/api/invitations/any-token');
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    });
  });

  describe('POST /invitations/{token} (the Accept form, without JavaScript)', () => {
    it('accepts: 200, the organisation and role; the row reaches the state POST /api/invitations/{token} gives', async () => {
      const { tenant, invitation } = await pendingIn({ name: 'Acme' }, { role: 'admin' });
      const viaApi = await factory.invitation({ tenantId: tenant.id, role: 'admin' });
      const res = await submitForm(invitation.id);
      expect(res.status).toBe(200);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.accepted);
      expect(visibleText(res.text)).toContain(PAGE_TEXT.acceptedFor('Acme', 'admin'));
      expect(res.headers['cache-control']).toBe('no-store');

      expect((await t.http.post(`/api/invitations/${viaApi.id}`)).body).toEqual({
        success: true,
        tenantId: tenant.id,
        role: 'admin',
      });
      expect(await stored(invitation.id)).toEqual({ ...invitation, status: 'accepted' });
      expect(await stored(viaApi.id)).toEqual({ ...viaApi, status: 'accepted' });
    });

    it('a second submission, and the API after it: already used', async () => {
      const { invitation } = await pendingIn();
      expect((await submitForm(invitation.id)).status).toBe(200);
      const again = await submitForm(invitation.id);
      expect(again.status).toBe(400);
      expect(headingOf(again.text)).toBe(PAGE_TEXT.alreadyUsed);
      expect((await t.http.post(`/api/invitations/${invitation.id}`)).body).toEqual(INVITATION_POST.alreadyUsed);
    });

    it('past expiresAt: the expired message, and the row stays pending (spec section 3)', async () => {
      const { invitation } = await pendingIn({}, pastExpiry);
      const res = await submitForm(invitation.id);
      expect(res.status).toBe(400);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.expired);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('an unknown token: 404, the not-valid message', async () => {
      const res = await submitForm('0b6f1d1e-3c1a-4d4e-9a53-6f7f2b2f5a10');
      expect(res.status).toBe(404);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.invalid);
    });

    it.each([
      ['the spec 500 INTERNAL_ERROR', () => new HttpException(INVITATION_POST.internal, 500)],
      ['a raw error', () => new Error('unexpected')],
    ])('%s: 500, "Something went wrong, try again"; the row stays pending', async (_, failure) => {
      const { invitation } = await pendingIn();
      jest.spyOn(t.app.get(InvitationsService), 'accept').mockRejectedValueOnce(failure());
      const res = await submitForm(invitation.id);
      expect(res.status).toBe(500);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.failed);
      expect(await stored(invitation.id)).toEqual(invitation);
    });

    it('whatever the body holds, it is not read: a JSON body or a large form changes nothing', async () => {
      const { invitation } = await pendingIn();
      const res = await invalidRequest(
        t.http
          .post(pagePath(invitation.id))
          .set('Content-Type', FORM)
          .send(`accept=no&${'x'.repeat(200_000)}`),
      );
      expect(res.status).toBe(200);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.accepted);
      const json = await invalidRequest(t.http.post(pagePath(invitation.id)).send({ status: 'pending' }));
      expect(json.status).toBe(400);
      expect((await stored(invitation.id)).status).toBe('accepted');
    });
  });

  describe('ALLOWED_ORIGINS set to the portals only', () => {
    let filtered: TestApp;
    beforeAll(async () => {
      filtered = await createTestApp({ env: { ALLOWED_ORIGINS: 'https://portal.example.com' } });
    });
    afterAll(() => filtered.close());

    it("the page's own form POST is accepted with a cookie and the service's own Origin: it reads no session", async () => {
      const invitation = await factories(filtered).invitation();
      const res = await filtered.http
        .post(pagePath(invitation.id))
        .set('Content-Type', FORM)
        .set('Cookie', 'id_token=anything')
        .set('Origin', 'http://127.0.0.1:3000')
        .send('');
      expect(res.status).toBe(200);
      expect(headingOf(res.text)).toBe(PAGE_TEXT.accepted);
      const row = await filtered.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id });
      expect(row.status).toBe('accepted');
    });

    it('a cookie-authenticated route keeps the ALLOWED_ORIGINS rule: that cookie and Origin on POST /api/org/invite refused', async () => {
      const res = await invalidRequest(
        filtered.http
          .post('/api/org/invite')
          .set('Cookie', 'id_token=anything')
          .set('Origin', 'http://127.0.0.1:3000')
          .send({}),
      );
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Origin not allowed' });
    });
  });

  describe('INVITATION_PAGE=false', () => {
    let off: TestApp;
    beforeAll(async () => {
      off = await createTestApp({ env: { INVITATION_PAGE: 'false' } });
    });
    afterAll(() => off.close());

    it.each(['get', 'post'] as const)(
      '%s /invitations/{token} answers 404 as a path without a route does, and reads nothing',
      async (method) => {
        const invitation = await factories(off).invitation(pastExpiry);
        const res = await off.http[method](pagePath(invitation.id));
        const unrouted = await invalidRequest(off.http[method](`/no-such-page/${invitation.id}`));
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: `Cannot ${method.toUpperCase()} /invitations/${invitation.id}` });
        expect(unrouted.body).toEqual({ error: `Cannot ${method.toUpperCase()} /no-such-page/${invitation.id}` });
        const row = await off.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id });
        expect(row.status).toBe('pending');
      },
    );

    it('the API still answers', async () => {
      const invitation = await factories(off).invitation();
      expect((await off.http.get(`/api/invitations/${invitation.id}`)).status).toBe(200);
    });
  });
});
