import type { Browser, BrowserContext, Page } from 'playwright-core';
import { OrgDomainEntity, SsoAttemptEntity, SsoConnectionEntity } from '../src/database/entities';
import { axeViolations, DESKTOP, describeWithChromium, launchChromium, PHONE } from './support/browser';
import { factories, sessionCookie } from './support/factories';
import { PROVIDER_HOOK_TIMEOUT_MS, TestOidcProvider } from './support/oidc-provider';
import { TestSamlIdp } from './support/saml-idp';
import { freePort } from './support/server-process';
import { documentStep, signInAtSamlProvider } from './support/setup-page';
import { heldDomain } from './support/sso';
import { createTestApp, TestApp } from './support/test-app';
import { TestDns } from './support/test-dns';

const TEST_MODE_KEY = 'setup-page-browser-key-'.padEnd(32, 'k');

/**
 * The setup page (`/setup`) in Debian's Chromium through playwright-core, as the IT admin walks it,
 * against the app on a real port (SQLite): the suites' loopback DNS server proves the domain, a SAML
 * IdP of the test signs in a test sign-in (its sign-in page played by the browser's routing), the
 * OpenID provider of scripts/dev-oidc.mjs signs in another. With SETUP_SCREENSHOTS=1 each step is
 * photographed for docs/setup-links.md.
 */
describeWithChromium('the setup page in Chromium', () => {
  jest.setTimeout(120_000);

  const dns = new TestDns();
  const oidc = new TestOidcProvider();
  let t: TestApp;
  let factory: ReturnType<typeof factories>;
  let browser: Browser;
  let baseUrl: string;
  let context: BrowserContext | undefined;
  let seq = 0;

  beforeAll(async () => {
    await Promise.all([dns.start(), oidc.start()]);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: {
        PUBLIC_BASE_URL: baseUrl,
        DNS_RESOLVER_SERVERS: dns.address,
        TEST_MODE: 'true',
        TEST_MODE_KEY,
      },
    });
    factory = factories(t);
    await t.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
  }, PROVIDER_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await Promise.all([dns.stop(), oidc.stop()]);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** An active organisation and its owner's session. */
  async function organisation(name: string) {
    const tenant = await factory.tenant({ name, status: 'active' });
    const owner = await factory.member(tenant.id, { role: 'owner' });
    return { tenantId: tenant.id, ownerCookie: await sessionCookie(t, owner) };
  }

  /** The owner makes a link; the IT admin opens it in a fresh browser, which the link forwards to /setup. */
  async function openLink(ownerCookie: string, intents: string[]): Promise<{ page: Page; linkId: string }> {
    const made = await t.http.post('/api/org/setup-links').set('Cookie', ownerCookie).send({ intents });
    expect(made.status).toBe(201);
    const linkId = made.body.link.id;
    const readBack = await t.http.get(`/api/test/setup-links/${linkId}`).set('X-Test-Mode-Key', TEST_MODE_KEY);
    expect(readBack.status).toBe(200);
    context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
    });
    afterChecks.push(() => expect(cspViolations).toEqual([]));
    await page.goto(readBack.body.url);
    await page.waitForURL(`${baseUrl}/setup`);
    await page.locator('html[data-setup-ready]').waitFor({ state: 'attached' });
    return { page, linkId };
  }
  let afterChecks: (() => void)[] = [];
  afterEach(() => {
    const checks = afterChecks;
    afterChecks = [];
    for (const check of checks) check();
  });

  const result = (page: Page, intent: string) => page.locator(`#${intent}-result`);
  /** The step's live region says this (waiting for it). */
  const expectSaid = async (page: Page, intent: string, words: string | RegExp) => {
    await page.waitForFunction(
      ([id, source, flags]) => new RegExp(source, flags).test(document.getElementById(id)!.textContent ?? ''),
      [`${intent}-result`, words instanceof RegExp ? words.source : escapeRegExp(words), 'u'] as const,
    );
  };
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** The steps' headings as a screen reader reads them: number, name, state. */
  const stepHeadings = (page: Page) =>
    page
      .locator('section.step h2')
      .evaluateAll((headings) => headings.map((heading) => heading.textContent!.replace(/\s+/g, ' ').trim()));
  const stateOf = (page: Page, intent: string) => page.locator(`#${intent}-state`).innerText();

  it('without a setup session: 401, a page that says to open the link again', async () => {
    context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const answer = await page.goto(`${baseUrl}/setup`);
    expect(answer!.status()).toBe(401);
    expect(await page.locator('h1').innerText()).toBe('Open your setup link again');
  });

  it('walks an IT admin through the domain, a SAML connection tested and on, a SCIM token used, and Finish', async () => {
    const { tenantId, ownerCookie } = await organisation('Acme Walk');
    const { page, linkId } = await openLink(ownerCookie, ['domain', 'sso', 'scim']);
    expect(await page.locator('h1').innerText()).toBe('Set up sign-in for Acme Walk');
    expect(await stepHeadings(page)).toEqual([
      '1. Prove your domain To do',
      '2. Connect your identity provider To do',
      '3. Provision your people (SCIM) To do',
      'Finish',
    ]);
    expect(await axeViolations(page)).toEqual([]);

    // 1. The domain, by the keyboard alone: type it, Enter; "Check now" has the focus.
    const domain = `walk-${seq++}.acme.test`;
    await page.getByLabel('Your company’s e-mail domain').focus();
    await page.keyboard.type(domain);
    await page.keyboard.press('Enter');
    await expectSaid(page, 'domain', `${domain} is added.`);
    expect(await page.evaluate('document.activeElement.dataset.domain')).toBe(domain);
    await page.keyboard.press('Enter');
    await expectSaid(page, 'domain', 'No TXT record with a tenant-verification value was found at');
    expect(await result(page, 'domain').getAttribute('class')).toContain('error');
    expect(await stateOf(page, 'domain')).toBe('In progress');
    await documentStep(page, '1-domain', '#domain-heading');
    const recordName = await page.locator(`[id="domain-${domain}-record-name"]`).innerText();
    const recordValue = await page.locator(`[id="domain-${domain}-record-value"]`).innerText();
    await page.getByRole('button', { name: 'Copy Value' }).click();
    await expectSaid(page, 'domain', 'Value copied.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(recordValue);
    dns.publish(recordName, recordValue);
    await page.getByRole('button', { name: `Check now ${domain}` }).press('Enter');
    await expectSaid(page, 'domain', `${domain}: Proven.`);
    expect(await stateOf(page, 'domain')).toBe('Done');
    expect(await t.dataSource.getRepository(OrgDomainEntity).findOneByOrFail({ tenantId, name: domain })).toMatchObject(
      { status: 'verified' },
    );

    // 2. Single sign-on: Okta by SAML, its metadata pasted; the values to paste there; a test sign-in.
    const idp = await TestSamlIdp.create('okta');
    await page.getByLabel('Okta', { exact: true }).check();
    await page.getByLabel('SAML 2.0').check();
    expect(await page.locator('[data-guide="okta-saml"]').isVisible()).toBe(true);
    await page.getByLabel('or the metadata XML, pasted').fill(idp.metadata());
    await documentStep(page, '2-sso-provider', '#sso-heading');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await expectSaid(page, 'sso', 'Okta (SAML 2.0) is saved.');
    const connection = await t.dataSource.getRepository(SsoConnectionEntity).findOneByOrFail({ tenantId });
    expect(connection).toMatchObject({ type: 'saml', name: 'Okta (SAML 2.0)', status: 'draft' });
    const sp = {
      entityId: await page.locator(`#connection-${connection.id}-entity-id`).innerText(),
      acsUrl: await page.locator(`#connection-${connection.id}-acs-url`).innerText(),
    };
    expect(sp).toEqual({
      entityId: `${baseUrl}/sso/saml/${connection.id}/metadata`,
      acsUrl: `${baseUrl}/sso/saml/${connection.id}/acs`,
    });
    expect(await stateOf(page, 'sso')).toBe('In progress');
    await documentStep(page, '3-sso-values', `#connection-${connection.id}-name`);
    await signInAtSamlProvider(context!, idp, sp, `kim@${domain}`);
    const provider = context!.waitForEvent('page');
    await page.getByRole('button', { name: 'Test sign-in Okta (SAML 2.0)' }).click();
    const tab = await provider;
    await expectSaid(page, 'sso', /Test sign-in passed: every check passed; kim@/);
    expect(await tab.locator('body').innerText()).toContain('"result":"ok"');
    await tab.close();
    expect(await stateOf(page, 'sso')).toBe('Done');
    expect(await t.dataSource.getRepository(SsoConnectionEntity).findOneByOrFail({ id: connection.id })).toMatchObject({
      status: 'active',
    });
    await documentStep(page, '4-sso-tested', `#connection-${connection.id}-name`);

    // 3. SCIM: a token shown once and used by the provider's request; a group mapped to a role.
    await page.getByRole('button', { name: 'Make a token' }).click();
    await expectSaid(page, 'scim', 'The token is made.');
    const secret = await page.locator('#scim-secret').innerText();
    expect(secret).toMatch(/^scim_/);
    const provisioned = await t.http
      .post('/scim/v2/Users')
      .set('Authorization', `Bearer ${secret}`)
      .set('Content-Type', 'application/scim+json')
      .send({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `ada@${domain}`, active: true });
    expect(provisioned.status).toBe(201);
    await page.getByRole('button', { name: 'Add a group' }).click();
    await page.getByLabel('Group 1', { exact: true }).fill('Engineering');
    await page.getByLabel('Role of group 1').selectOption('admin');
    await page.locator('#step-scim summary', { hasText: 'Okta' }).click();
    await documentStep(page, '5-scim', '#scim-heading');
    await page.getByRole('button', { name: 'Save groups and roles' }).click();
    await expectSaid(page, 'scim', 'Groups and roles are saved.');
    const mapping = await t.http.get('/api/org/scim/role-mapping').set('Cookie', ownerCookie);
    expect(mapping.body).toEqual({ mapping: { Engineering: 'admin' } });
    await page.reload();
    expect(await stateOf(page, 'scim')).toBe('Done');
    expect(await page.locator('#scim-secret').innerText()).toBe('');
    expect(await axeViolations(page)).toEqual([]);
    // On a phone nothing is wider than the screen: long values wrap beside their copy buttons.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);

    // Finish: the link is completed and closed.
    await page.getByRole('button', { name: 'Finish setup' }).click();
    await page.getByRole('heading', { name: 'Setup finished' }).waitFor();
    expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
    await documentStep(page, '6-finished', 'h1');
    const links = await t.http.get('/api/org/setup-links').set('Cookie', ownerCookie);
    expect(links.body.links.find((link: { id: string }) => link.id === linkId)).toMatchObject({ status: 'completed' });
    await page.reload();
    expect(await page.locator('h1').innerText()).toBe('Open your setup link again');
  });

  it('every refusal is said in words: not a domain, no metadata, a metadata file that cannot be used; a typo is removed', async () => {
    const { tenantId, ownerCookie } = await organisation('Initech');
    const { page } = await openLink(ownerCookie, ['domain', 'sso']);
    await page.getByLabel('Your company’s e-mail domain').fill('gmail.com');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expectSaid(page, 'domain', 'That is a free e-mail provider’s domain. Give your company’s own domain.');
    expect(await result(page, 'domain').getAttribute('class')).toContain('error');
    // A typo, claimed and removed again.
    await page.getByLabel('Your company’s e-mail domain').fill('initech-typo.test');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expectSaid(page, 'domain', 'initech-typo.test is added.');
    await page.getByRole('button', { name: 'Remove initech-typo.test' }).click();
    await expectSaid(page, 'domain', 'initech-typo.test is removed.');
    expect(await page.locator('article.card').count()).toBe(0);
    expect(await t.dataSource.getRepository(OrgDomainEntity).countBy({ tenantId })).toBe(0);

    await page.getByRole('button', { name: 'Save connection' }).click();
    await expectSaid(page, 'sso', 'Give the metadata URL, a metadata file or the pasted XML.');
    await page.getByLabel('or its metadata file').setInputFiles({
      name: 'metadata.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from('<html>not metadata</html>'),
    });
    await page.getByRole('button', { name: 'Save connection' }).click();
    await expectSaid(page, 'sso', /^The provider’s metadata cannot be used\. \S/);
    expect(await result(page, 'sso').getAttribute('class')).toContain('error');
    expect(await page.locator('article.card').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a test sign-in that fails: the page says the attempt’s exact reason, the connection stays off, its draft is removed', async () => {
    const { tenantId, ownerCookie } = await organisation('Globex');
    const domain = `globex-${seq++}.test`;
    await heldDomain(t, tenantId, domain);
    const { page } = await openLink(ownerCookie, ['sso']);
    expect(await stepHeadings(page)).toEqual(['1. Connect your identity provider To do', 'Finish']);

    await page.getByLabel('Another OpenID Connect provider').check();
    expect(await page.locator('#sso-protocols').isHidden()).toBe(true);
    await page.getByLabel('Issuer URL').fill(oidc.issuer);
    await page.getByLabel('Client ID').fill(oidc.clientId);
    await page.getByLabel('Client secret').fill(oidc.clientSecret);
    await page.getByRole('button', { name: 'Save connection' }).click();
    await expectSaid(page, 'sso', 'Another OpenID Connect provider (OpenID Connect) is saved.');
    const connection = await t.dataSource.getRepository(SsoConnectionEntity).findOneByOrFail({ tenantId });
    expect(await page.locator(`#connection-${connection.id}-redirect-uri`).innerText()).toBe(
      `${baseUrl}/sso/oidc/${connection.id}/callback`,
    );

    // The admin signs in at the provider with an address outside the organisation's proven domains.
    await oidc.nextLogin({ sub: 'kim', email: 'kim@elsewhere.test', email_verified: true });
    const provider = context!.waitForEvent('page');
    await page.getByRole('button', { name: /^Test sign-in/ }).click();
    await (await provider).waitForLoadState();
    await expectSaid(page, 'sso', /^Last test sign-in .*: Test sign-in failed: The address signed in with is not at/);
    const [attempt] = await t.dataSource
      .getRepository(SsoAttemptEntity)
      .find({ where: { connectionId: connection.id }, order: { at: 'DESC' } });
    expect(attempt).toMatchObject({ result: 'SSO_DOMAIN_MISMATCH', detail: expect.stringMatching(/^test sign-in: /) });
    const reason = attempt.detail.slice('test sign-in: '.length);
    expect(await result(page, 'sso').innerText()).toContain(`The check that failed: SSO_DOMAIN_MISMATCH ${reason}`);
    expect(await result(page, 'sso').getAttribute('class')).toContain('error');
    expect(await page.locator(`#connection-${connection.id}-last-test`).innerText()).toContain(reason);
    expect(await stateOf(page, 'sso')).toBe('In progress');
    expect(await t.dataSource.getRepository(SsoConnectionEntity).findOneByOrFail({ id: connection.id })).toMatchObject({
      status: 'draft',
    });
    expect(await axeViolations(page)).toEqual([]);
    await documentStep(page, '7-sso-test-failed', `#connection-${connection.id}-name`);

    // The draft that this link made can be removed, to start again.
    await page.getByRole('button', { name: /^Remove this connection/ }).click();
    await expectSaid(page, 'sso', 'Another OpenID Connect provider (OpenID Connect) is removed.');
    expect(await t.dataSource.getRepository(SsoConnectionEntity).countBy({ tenantId })).toBe(0);
    expect(await stateOf(page, 'sso')).toBe('To do');
  });
});
