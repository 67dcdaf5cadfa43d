import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { invalidRequest } from './support/documented-http';
import { SETUP_SCRIPT_FILES } from '../src/setup-links/page/setup-page.assets';
import { SETUP_BASE, useSetupLinksSuite } from './support/setup-links';

/** The setup page's routes (docs/setup-links.md, "The pages"): the page of a setup session, and its script. */
describe('setup page', () => {
  const { t, org, openLink, revokeLink, verified } = useSetupLinksSuite();

  const page = (cookie?: string) => {
    const request = t.http.get('/setup');
    return cookie ? request.set('Cookie', cookie) : request;
  };
  /** The page's headers: its own nonced script and style, calls to this origin only, no Referer, no caching, no indexing. */
  const expectPageHeaders = (headers: Record<string, string>) => {
    expect(headers['content-type']).toMatch(/^text\/html/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(headers['content-security-policy'])![1];
    expect(headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
        "form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['x-robots-tag']).toBe('noindex');
    return nonce;
  };
  const stepsOf = (html: string) => [...html.matchAll(/<section class="step" id="step-(\w+)"/g)].map(([, id]) => id);
  const stateOf = (html: string, intent: string) =>
    new RegExp(`id="${intent}-state" data-part>([^<]+)<`).exec(html)?.[1];

  describe('GET /setup', () => {
    it('without a setup session: 401, a page that says to open the link again, nothing of any organisation', async () => {
      const res = await page();
      expect(res.status).toBe(401);
      expectPageHeaders(res.headers);
      expect(res.text).toContain('<h1>Open your setup link again</h1>');
      expect(res.text).not.toContain('<script');
    });

    it('an org session alone is no setup session: 401, the same page', async () => {
      const res = await page(org.ownerCookie);
      expect(res.status).toBe(401);
      expect(res.text).toContain('<h1>Open your setup link again</h1>');
      expect(res.text).not.toContain(org.tenant.name);
    });

    it('a setup session: 200, the organisation, the granted steps in the order domain → SCIM, each with its state', async () => {
      const { cookie } = await openLink(['scim', 'domain']);
      const name = await verified();
      const res = await page(cookie);
      expect(res.status).toBe(200);
      const nonce = expectPageHeaders(res.headers);
      expect(res.text).toContain(`<h1 tabindex="-1">Set up sign-in for ${org.tenant.name}</h1>`);
      expect(stepsOf(res.text)).toEqual(['domain', 'scim', 'finish']);
      expect(stateOf(res.text, 'domain')).toBe('Done');
      expect(stateOf(res.text, 'scim')).toBe('To do');
      expect(res.text).toContain(`<h3 id="domain-${name}-name" tabindex="-1">${name}</h3>`);
      expect(res.text).toContain(`<code id="scim-base-url">${SETUP_BASE}/scim/v2</code>`);
      expect(res.text).toContain(`<script type="module" nonce="${nonce}" src="/setup-assets/setup-page.js"></script>`);
    });

    it('SCIM: the token made through the link is listed (never its secret) and the role mapping shown', async () => {
      const { cookie } = await openLink(['scim']);
      const made = await t.http.post('/api/setup/scim/tokens').set('Cookie', cookie);
      expect(made.status).toBe(201);
      const mapped = await t.http
        .put('/api/setup/scim/role-mapping')
        .set('Cookie', cookie)
        .send({ Engineering: 'admin' });
      expect(mapped.status).toBe(200);
      const res = await page(cookie);
      expect(res.status).toBe(200);
      expect(stateOf(res.text, 'scim')).toBe('In progress');
      expect(res.text).toContain('One token has been made.');
      expect(res.text).not.toContain(made.body.token.secret);
      expect(res.text).toContain('<input id="scim-group-1" class="group" type="text" value="Engineering"');
      expect(res.text).toContain('<option value="admin" selected>admin</option>');
    });

    it('a revoked link’s session: 401, the page that says to open the link again', async () => {
      const { id, cookie } = await openLink(['domain']);
      expect((await revokeLink(id)).status).toBe(204);
      const res = await page(cookie);
      expect(res.status).toBe(401);
      expect(res.text).toContain('<h1>Open your setup link again</h1>');
    });
  });

  describe('GET /setup-assets/{file}', () => {
    it.each(SETUP_SCRIPT_FILES)('%s: 200, the module as it is, as JavaScript', async (file) => {
      const res = await t.http.get(`/setup-assets/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.text).toBe(readFileSync(join(__dirname, '..', 'src', 'setup-links', 'page', 'browser', file), 'utf8'));
    });

    it.each([['setup-page.assets.ts'], ['..%2Fsetup-page.assets.ts'], ['nothing.js']])(
      '%s: 404 {error}, no file served',
      async (file) => {
        // Outside the document's list of files: meant to be refused.
        const res = await invalidRequest(t.http.get(`/setup-assets/${file}`));
        expect([res.status, res.body]).toEqual([404, { error: 'Not Found' }]);
      },
    );
  });
});
