import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { SsoRequestEntity } from '../src/database/entities';
import { describeWithChromium, launchChromium } from './support/browser';
import { factories, sessionCookie } from './support/factories';
import { TestSamlIdp } from './support/saml-idp';
import { freePort } from './support/server-process';
import { createTestApp, TestApp } from './support/test-app';

/** What the provider's SSO URL received: the form's fields. */
type Received = Record<string, string>;

/**
 * A SAML provider that takes AuthnRequests over HTTP-POST only (docs/sso.md, "SAML"): in Debian's
 * Chromium, the start leads to this service's page, whose form reaches the provider with the pending
 * request's AuthnRequest, by its script, or by its button where scripts are off.
 */
describeWithChromium('single sign-on: a SAML provider that takes HTTP-POST only, in Chromium', () => {
  jest.setTimeout(60_000);

  let t: TestApp;
  let browser: Browser;
  let baseUrl: string;
  let connectionId: string;
  const received: Received[] = [];
  const provider = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method === 'POST') received.push(Object.fromEntries(new URLSearchParams(body)));
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('the provider’s sign-in page');
    });
  });
  let ssoUrl: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    ssoUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/sso/saml`;
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { PUBLIC_BASE_URL: baseUrl } });
    await t.app.listen(port, '127.0.0.1');
    browser = await launchChromium();
    const factory = factories(t);
    const tenant = await factory.tenant({ status: 'active' });
    const owner = await sessionCookie(t, await factory.member(tenant.id, { role: 'owner' }));
    const idp = await TestSamlIdp.create('okta');
    const metadataXml = idp
      .metadata()
      .replace(/<md:SingleSignOnService [^>]*HTTP-Redirect"[^>]*>/, '')
      .replace(idp.ssoUrl, ssoUrl);
    const created = await t.http
      .post('/api/org/sso/connections')
      .set('Cookie', owner)
      .send({ type: 'saml', metadataXml });
    expect(created.status).toBe(201);
    connectionId = created.body.connection.id;
    const activated = await t.http
      .patch(`/api/org/sso/connections/${connectionId}`)
      .set('Cookie', owner)
      .send({ status: 'active' });
    expect(activated.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => provider.close(resolve));
  });

  /** The request the provider received is a pending sign-in of the connection, unused. */
  async function expectPendingRequest(fields: Received) {
    const xml = Buffer.from(fields.SAMLRequest, 'base64').toString('utf8');
    const id = /\sID="([^"]+)"/.exec(xml)![1];
    expect(xml).toContain(`AssertionConsumerServiceURL="${baseUrl}/sso/saml/${connectionId}/acs"`);
    expect(fields.RelayState).toBe(id);
    expect(await t.dataSource.getRepository(SsoRequestEntity).findOneByOrFail({ state: id })).toMatchObject({
      connectionId,
      usedAt: null,
    });
  }

  it('with scripts on, the page posts the AuthnRequest to the provider at once', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const before = received.length;
    await page.goto(`${baseUrl}/sso/start?connection=${connectionId}`);
    await page.waitForURL(ssoUrl);
    expect(await page.textContent('body')).toBe('the provider’s sign-in page');
    expect(received.length).toBe(before + 1);
    await expectPendingRequest(received.at(-1)!);
    await context.close();
  });

  it('with scripts off, its button posts it', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const before = received.length;
    await page.goto(`${baseUrl}/sso/start?connection=${connectionId}`);
    expect(page.url()).toMatch(new RegExp(`/sso/saml/${connectionId}/requests/_[0-9a-f]{40}$`));
    await page.getByRole('button', { name: 'Continue to your sign-in page' }).click();
    await page.waitForURL(ssoUrl);
    expect(received.length).toBe(before + 1);
    await expectPendingRequest(received.at(-1)!);
    await context.close();
  });
});
