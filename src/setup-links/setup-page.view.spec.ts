/** The setup page's markup: its steps, their states and values, its labels, its escaping and its headers. */
import { SetupPageModel } from './page/setup-page.parts';
import { renderNoSession, renderSetupPage, SCRIPT_TEXT, SETUP_SCRIPT_PATH, setupPageHeaders } from './setup-page.view';
import { connectionName } from './page/setup-sso-step';

const NONCE = 'bm9uY2Utb2YtdGhlLXRlc3Q=';
const INJECTION = `<script>alert("x")</script><img src=x onerror='alert(1)'>`;
const AT = '2026-12-02T08:00:00.000Z';

const model = (overrides: Partial<SetupPageModel> = {}): SetupPageModel => ({
  organisation: { id: 't1', name: 'Acme' },
  intents: ['domain', 'sso', 'scim'],
  expiresAt: '2026-12-05T08:00:00.000Z',
  domains: [],
  connections: [],
  lastTests: {},
  scimTokens: [],
  scimBaseUrl: 'https://tenants.example.com/scim/v2',
  roleMapping: {},
  ...overrides,
});

const pending = {
  name: 'acme.test',
  status: 'pending',
  verification: { recordName: '_tenant-verification.acme.test', recordValue: 'tenant-verification=abc', expiresAt: AT },
  lastCheck: { at: AT, result: 'record_not_found' },
  verifiedAt: null,
};

const saml = {
  id: 'c1',
  type: 'saml',
  name: connectionName('okta', 'saml'),
  status: 'draft',
  saml: { idpEntityId: 'http://www.okta.com/exk1', idpSsoUrl: 'https://acme.okta.test/sso', certificates: [] },
  sp: {
    entityId: 'https://tenants.example.com/sso/saml/c1/metadata',
    acsUrl: 'https://tenants.example.com/sso/saml/c1/acs',
    metadataUrl: 'https://tenants.example.com/sso/saml/c1/metadata',
  },
};

/** The ids that labels name, and the ids of the form controls: every control has its label. */
function unlabelledControls(page: string): string[] {
  const labelled = new Set([...page.matchAll(/<label for="([^"]+)"/g)].map(([, id]) => id));
  const controls = [...page.matchAll(/<(?:input|select|textarea) id="([^"]+)"/g)].map(([, id]) => id);
  return controls.filter((id) => !labelled.has(id));
}

describe(renderSetupPage.name, () => {
  it('one h1; the nonced style and module script, and the words as JSON, which no policy runs', () => {
    const page = renderSetupPage(model(), NONCE);
    expect(page.match(/<h1[ >]/g)).toHaveLength(1);
    expect(page.match(/<script[ >]/g)).toHaveLength(2);
    expect(page).toContain(`<script type="module" nonce="${NONCE}" src="${SETUP_SCRIPT_PATH}"></script>`);
    expect(page).toContain(`<style nonce="${NONCE}">`);
    const json = /<script type="application\/json" id="setup-text">(.*?)<\/script>/s.exec(page)![1];
    expect(JSON.parse(json)).toEqual(SCRIPT_TEXT);
  });

  it('the steps of the granted intents only, in the order domain → SSO → SCIM, numbered from 1', () => {
    const page = renderSetupPage(model({ intents: ['scim', 'domain'] }), NONCE);
    expect([...page.matchAll(/<section class="step" id="step-(\w+)"/g)].map(([, id]) => id)).toEqual([
      'domain',
      'scim',
      'finish',
    ]);
    expect(page).toContain('<span class="number">2.</span> Provision your people (SCIM)');
  });

  it('each step has its state: to do, in progress, done', () => {
    const none = renderSetupPage(model(), NONCE);
    expect(none).toContain('<span class="state state-to-do" id="domain-state" data-part>To do</span>');
    const started = renderSetupPage(model({ domains: [pending], connections: [saml] }), NONCE);
    expect(started).toContain('id="domain-state" data-part>In progress<');
    expect(started).toContain('id="sso-state" data-part>In progress<');
    const done = renderSetupPage(
      model({
        domains: [{ ...pending, status: 'verified', verifiedAt: AT }],
        connections: [{ ...saml, status: 'active' }],
        scimTokens: [{ id: 't', createdAt: AT, lastUsedAt: AT }],
      }),
      NONCE,
    );
    for (const step of ['domain', 'sso', 'scim']) expect(done).toContain(`id="${step}-state" data-part>Done<`);
  });

  it('a pending domain: its record with copy buttons, the last DNS answer in words, Check now', () => {
    const page = renderSetupPage(model({ domains: [pending] }), NONCE);
    expect(page).toContain('<code id="domain-acme.test-record-value">tenant-verification=abc</code>');
    expect(page).toContain('aria-label="Copy Value"');
    expect(page).toContain(
      'No TXT record with a tenant-verification value was found at _tenant-verification.acme.test',
    );
    expect(page).toContain('type only _tenant-verification as the host');
    expect(page).toContain('data-action="verify-domain" data-domain="acme.test"');
    expect(page).toContain('data-action="remove-domain" data-domain="acme.test"');
  });

  it('a SAML connection: the values to paste at the provider, its guide, and the last test’s exact reason', () => {
    const detail = 'test sign-in: kim@other.test is not in a domain this organisation holds';
    const lastTests = { c1: { at: AT, result: 'SSO_DOMAIN_MISMATCH', detail } };
    const page = renderSetupPage(model({ connections: [saml], lastTests }), NONCE);
    expect(page).toContain(`<code id="connection-c1-acs-url">${saml.sp.acsUrl}</code>`);
    expect(page).toContain(`<code id="connection-c1-entity-id">${saml.sp.entityId}</code>`);
    expect(page).toContain('In Okta: General → SAML Settings → Edit.');
    expect(page).toContain(
      'The check that failed: <code>SSO_DOMAIN_MISMATCH</code> kim@other.test is not in a domain this organisation holds',
    );
    expect(page).toContain('data-action="test-connection" data-connection="c1"');
    expect(page).toContain('data-action="remove-connection" data-connection="c1"');
    const active = renderSetupPage(model({ connections: [{ ...saml, status: 'active' }] }), NONCE);
    expect(active).not.toContain('data-action="remove-connection"');
  });

  it('every input, select and text area has a label that names it', () => {
    const page = renderSetupPage(
      model({ domains: [pending], connections: [saml], roleMapping: { Engineering: 'admin' } }),
      NONCE,
    );
    expect(unlabelledControls(page)).toEqual([]);
  });

  it('no id is given twice, a template’s aside', () => {
    const oidc = {
      ...saml,
      id: 'c2',
      type: 'oidc',
      oidc: { issuer: 'https://idp', clientId: 'x' },
      sp: { redirectUri: 'u' },
    };
    const page = renderSetupPage(
      model({ domains: [pending], connections: [saml, oidc], roleMapping: { Engineering: 'admin' } }),
      NONCE,
    ).replace(/<template[\s\S]*?<\/template>/g, '');
    const ids = [...page.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('a group that gives custom roles keeps them beside the base role the page sets', () => {
    const page = renderSetupPage(model({ roleMapping: { Leads: { role: 'admin', roles: ['auditor'] } } }), NONCE);
    expect(page).toContain('<li class="mapping-row" data-roles="[&quot;auditor&quot;]">');
    expect(page).toContain('<option value="admin" selected>admin</option>');
  });

  it('escapes every value: an organisation, domain or connection named with markup is shown as text', () => {
    const page = renderSetupPage(
      model({
        organisation: { id: 't', name: INJECTION },
        connections: [{ ...saml, name: INJECTION }],
        roleMapping: { [INJECTION]: 'member' },
      }),
      NONCE,
    );
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });
});

describe(renderNoSession.name, () => {
  it('says to open the link again, with no script and no form', () => {
    const page = renderNoSession(NONCE);
    expect(page).toContain('<h1>Open your setup link again</h1>');
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<button');
  });
});

describe(setupPageHeaders.name, () => {
  it('runs the nonced script and style only, calls this origin only, posts no form; no Referer, no cache, no index', () => {
    expect(setupPageHeaders(NONCE)).toEqual({
      'Content-Security-Policy':
        `default-src 'none'; script-src 'nonce-${NONCE}'; style-src 'nonce-${NONCE}'; connect-src 'self'; ` +
        "form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
    });
  });
});
