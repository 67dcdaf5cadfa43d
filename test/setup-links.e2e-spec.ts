import { SetupLinkEntity } from '../src/database/entities/setup-link.entity';
import { hashLinkToken } from '../src/setup-links/setup-link';
import { SetupLinksService } from '../src/setup-links/setup-links.service';
import { invalidRequest } from './support/documented-http';
import { eventually } from './support/eventually';
import { sessionCookie } from './support/factories';
import { newInviter } from './support/inviting';
import { ALL_INTENTS, SETUP_BASE, SETUP_TEST_MODE_KEY, setupRefused, useSetupLinksSuite } from './support/setup-links';

const HOUR = 3_600_000;

/** The owners' setup links (docs/setup-links.md): making, listing and revoking them. */
describe('setup links: the owners’ routes', () => {
  const { t, factory, org, createLink, listLinks, revokeLink, tokenOf, linkRow, expireLink, events, mails } =
    useSetupLinksSuite({ SETUP_LINKS_PER_ORG: '2' });

  describe('POST /api/org/setup-links', () => {
    it('an owner makes a link: 201, status open, 72 hours by default, the URL {PUBLIC_BASE_URL}/setup/{token}; only the token’s hash is stored', async () => {
      const before = Date.now();
      const res = await createLink({ intents: ['scim', 'domain'] });
      expect(res.status).toBe(201);
      const { link } = res.body;
      expect(res.body).toEqual({
        success: true,
        link: {
          id: expect.any(String),
          url: expect.stringMatching(new RegExp(`^${SETUP_BASE}/setup/[A-Za-z0-9_-]{43}$`)),
          intents: ['domain', 'scim'],
          status: 'open',
          createdAt: expect.any(String),
          expiresAt: expect.any(String),
          createdBy: org.owner.id,
          lastOpenedAt: null,
          completedAt: null,
          revokedAt: null,
          email: null,
        },
      });
      const life = Date.parse(link.expiresAt) - Date.parse(link.createdAt);
      expect(life).toBe(72 * HOUR);
      expect(Date.parse(link.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      const token = link.url.slice(link.url.lastIndexOf('/') + 1);
      const row = await linkRow(link.id);
      expect(row).toMatchObject({ tenantId: org.tenant.id, tokenHash: hashLinkToken(token), intents: 'domain,scim' });
      expect(JSON.stringify(row)).not.toContain(token);
      const [created] = await events('setup_link.created');
      expect(created).toMatchObject({
        actorId: org.owner.id,
        targetType: 'setup_link',
        targetId: link.id,
        data: { intents: ['domain', 'scim'], expiresAt: link.expiresAt },
      });
      expect(JSON.stringify(created)).not.toContain(token);
    });

    it('expiresInHours sets the life (1 to 720)', async () => {
      const res = await createLink({ intents: ['sso'], expiresInHours: 720 });
      expect(res.status).toBe(201);
      expect(Date.parse(res.body.link.expiresAt) - Date.parse(res.body.link.createdAt)).toBe(720 * HOUR);
    });

    it('with email, the link is e-mailed through the outbox; the delivered row is deleted, so the token is stored nowhere', async () => {
      const res = await createLink({ intents: ALL_INTENTS, email: ' IT@Acme.Example ' });
      expect(res.status).toBe(201);
      expect(res.body.link.email).toBe('it@acme.example');
      const [mail] = await eventually(() => {
        const caught = mails('it@acme.example');
        expect(caught).toHaveLength(1);
        return caught;
      });
      expect(mail.parsed.subject).toBe('Set up your e-mail domain, single sign-on, SCIM provisioning for Acme');
      expect(mail.parsed.text).toContain(res.body.link.url);
      expect(mail.parsed.text).toContain(`${org.owner.email} asks you`);
      await eventually(async () => expect(await t.dataSource.query('SELECT id FROM notice_email_outbox')).toEqual([]));
    });

    it.each([
      [{}, 'intents'],
      [{ intents: [] }, 'intents'],
      [{ intents: ['domain', 'domain'] }, 'intents'],
      [{ intents: ['members'] }, 'intents'],
      [{ intents: 'sso' }, 'intents'],
      [{ intents: ['sso'], expiresInHours: 0 }, 'expiresInHours'],
      [{ intents: ['sso'], expiresInHours: 721 }, 'expiresInHours'],
      [{ intents: ['sso'], expiresInHours: 1.5 }, 'expiresInHours'],
      [{ intents: ['sso'], email: 'not-an-address' }, 'email'],
    ])('%j: 400 SETUP_LINK_INVALID naming %s; nothing stored', async (body, field) => {
      const res = await invalidRequest(createLink(body));
      expect([res.status, res.body]).toEqual([400, setupRefused('SETUP_LINK_INVALID', expect.stringContaining(field))]);
      expect(await t.dataSource.getRepository(SetupLinkEntity).countBy({ tenantId: org.tenant.id })).toBe(0);
    });

    it('at most SETUP_LINKS_PER_ORG open links: 422 SETUP_LINK_LIMIT; a revoked or expired one frees its place', async () => {
      const first = await createLink();
      const second = await createLink();
      expect([first.status, second.status]).toEqual([201, 201]);
      const over = await createLink();
      expect([over.status, over.body]).toEqual([422, setupRefused('SETUP_LINK_LIMIT')]);
      expect(await t.dataSource.getRepository(SetupLinkEntity).countBy({ tenantId: org.tenant.id })).toBe(2);
      expect((await revokeLink(first.body.link.id)).status).toBe(204);
      expect((await createLink()).status).toBe(201);
      await expireLink(second.body.link.id);
      expect((await createLink()).status).toBe(201);
    });

    it('parallel creations count in turn: never more than the limit', async () => {
      const answers = await Promise.all([createLink(), createLink(), createLink(), createLink()]);
      expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 422, 422]);
    });

    it('setup_links:manage is the owners’: an admin and a member get 403; no session 401', async () => {
      for (const role of ['admin', 'member']) {
        const user = await factory.member(org.tenant.id, { role });
        const res = await createLink({ intents: ['sso'] }, await sessionCookie(t, user));
        expect([res.status, res.body]).toEqual([403, { error: 'Forbidden' }]);
      }
      const anonymous = await t.http.post('/api/org/setup-links').send({ intents: ['sso'] });
      expect([anonymous.status, anonymous.body]).toEqual([401, { error: 'Unauthorized' }]);
    });
  });

  describe('GET /api/org/setup-links', () => {
    it('newest first, each with its status and lastOpenedAt; never a URL or token', async () => {
      const older = (await createLink({ intents: ['domain'] })).body.link;
      const newer = (await createLink({ intents: ['sso'] })).body.link;
      await t.http.get(`/setup/${await tokenOf(newer.id)}`);
      const res = await listLinks();
      expect(res.status).toBe(200);
      expect(res.body.links.map((link: { id: string }) => link.id)).toEqual([newer.id, older.id]);
      expect(res.body.links[0]).toEqual({ ...newer, url: undefined, lastOpenedAt: expect.any(String) });
      expect(res.body.links[1]).toEqual({ ...older, url: undefined });
      expect(JSON.stringify(res.body)).not.toContain('/setup/');
    });

    it('a link past its time is expired; its setup_link.expired event is written once', async () => {
      const { link } = (await createLink()).body;
      await expireLink(link.id);
      const first = await listLinks();
      await listLinks();
      expect(first.body.links[0]).toMatchObject({ id: link.id, status: 'expired' });
      const expired = await events('setup_link.expired');
      expect(expired).toHaveLength(1);
      expect(expired[0]).toMatchObject({ actorId: null, targetId: link.id });
      expect((await linkRow(link.id)).expiryRecordedAt).not.toBeNull();
    });

    it('the sweep records each expiry that no one saw, across organisations, once', async () => {
      const first = (await createLink()).body.link;
      const second = (await createLink()).body.link;
      await expireLink(first.id);
      await expireLink(second.id);
      const sweep = t.app.get(SetupLinksService);
      expect(await sweep.recordExpiries()).toBeGreaterThanOrEqual(2); // earlier tests' links too
      expect(await sweep.recordExpiries()).toBe(0);
      await listLinks();
      expect((await events('setup_link.expired')).map((event) => event.targetId).sort()).toEqual(
        [first.id, second.id].sort(),
      );
    });

    it('another organisation’s links are not listed', async () => {
      await createLink();
      const other = await newInviter(t, { status: 'active' });
      const res = await listLinks(other.cookie);
      expect([res.status, res.body]).toEqual([200, { links: [] }]);
    });
  });

  describe('DELETE /api/org/setup-links/{id}', () => {
    it('204: the link revoked, event setup_link.revoked', async () => {
      const { link } = (await createLink()).body;
      const res = await revokeLink(link.id);
      expect([res.status, res.text]).toEqual([204, '']);
      expect((await linkRow(link.id)).revokedAt).not.toBeNull();
      expect((await listLinks()).body.links[0]).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
      expect(await events('setup_link.revoked')).toEqual([
        expect.objectContaining({ actorId: org.owner.id, targetId: link.id }),
      ]);
    });

    it('a link no longer open: 409 SETUP_LINK_CLOSED, nothing changed', async () => {
      const { link } = (await createLink()).body;
      await revokeLink(link.id);
      const again = await revokeLink(link.id);
      expect([again.status, again.body]).toEqual([409, setupRefused('SETUP_LINK_CLOSED')]);
      const expired = (await createLink()).body.link;
      await expireLink(expired.id);
      const late = await revokeLink(expired.id);
      expect([late.status, late.body]).toEqual([409, setupRefused('SETUP_LINK_CLOSED')]);
      expect((await linkRow(expired.id)).revokedAt).toBeNull();
      expect(await events('setup_link.revoked')).toHaveLength(1);
    });

    it('an unknown id, or another organisation’s link: 404 SETUP_LINK_NOT_FOUND, the link untouched', async () => {
      const { link } = (await createLink()).body;
      const other = await newInviter(t, { status: 'active' });
      for (const [id, cookie] of [
        ['00000000-0000-4000-8000-000000000000', org.ownerCookie],
        [link.id, other.cookie],
      ]) {
        const res = await revokeLink(id, cookie);
        expect([res.status, res.body]).toEqual([404, setupRefused('SETUP_LINK_NOT_FOUND')]);
      }
      expect((await linkRow(link.id)).revokedAt).toBeNull();
    });
  });

  describe('GET /api/test/setup-links/{id}', () => {
    it('test mode gives a link’s token and URL back, by TEST_MODE_KEY; 401 without it, 404 for an unknown link', async () => {
      const { link } = (await createLink()).body;
      const res = await t.http.get(`/api/test/setup-links/${link.id}`).set('X-Test-Mode-Key', SETUP_TEST_MODE_KEY);
      expect([res.status, res.body]).toEqual([200, { id: link.id, token: expect.any(String), url: link.url }]);
      expect(hashLinkToken(res.body.token)).toBe((await linkRow(link.id)).tokenHash);
      const keyless = await invalidRequest(t.http.get(`/api/test/setup-links/${link.id}`));
      expect([keyless.status, keyless.body]).toEqual([401, { error: 'Unauthorized' }]);
      const unknown = await t.http
        .get('/api/test/setup-links/00000000-0000-4000-8000-000000000000')
        .set('X-Test-Mode-Key', SETUP_TEST_MODE_KEY);
      expect([unknown.status, unknown.body]).toEqual([404, setupRefused('SETUP_LINK_NOT_FOUND')]);
    });
  });
});
