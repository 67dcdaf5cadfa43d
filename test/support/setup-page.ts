/** What the setup page's browser walks share: the screenshots for docs/setup-links.md, a SAML provider's sign-in page. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { TestSamlIdp } from './saml-idp';

/** The viewport of the setup page's screenshots in docs/setup-links.md: small files, a laptop's window. */
export const SCREENSHOT_VIEWPORT = { width: 1000, height: 700 };

const SCREENSHOT_DIR = join(__dirname, '..', '..', 'docs', 'images', 'setup-links');

/**
 * With SETUP_SCREENSHOTS=1, the page as it stands, its step's heading at the top of a 1000×700
 * window, written to docs/images/setup-links/<name>.png (committed; the docs show them). Without it,
 * nothing: an ordinary run writes no file.
 */
export async function documentStep(page: Page, name: string, heading: string): Promise<void> {
  if (process.env.SETUP_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const size = page.viewportSize();
  await page.setViewportSize(SCREENSHOT_VIEWPORT);
  await page.locator(heading).evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  if (size) await page.setViewportSize(size);
}

/**
 * The SAML provider's sign-in page, in the browser: its SSO URL (HTTP-Redirect, an AuthnRequest in
 * the query) answers a page that posts a response signed by the test's IdP for `email`, in answer to
 * that request, to the connection's ACS, as a provider does once its person has signed in.
 */
export async function signInAtSamlProvider(
  context: BrowserContext,
  idp: TestSamlIdp,
  sp: { entityId: string; acsUrl: string },
  email: string,
): Promise<void> {
  await context.route(`${idp.ssoUrl}**`, async (route) => {
    const request = TestSamlIdp.authnRequest(route.request().url());
    const response = idp.response({ acsUrl: sp.acsUrl, audience: sp.entityId, email, inResponseTo: request.id });
    const relayState =
      request.relayState === null
        ? ''
        : `<input type="hidden" name="RelayState" value="${request.relayState.replace(/"/g, '&quot;')}">`;
    await route.fulfill({
      contentType: 'text/html',
      body:
        `<!DOCTYPE html><html lang="en"><body><form method="post" action="${sp.acsUrl}">` +
        `<input type="hidden" name="SAMLResponse" value="${response}">${relayState}</form>` +
        '<script>document.forms[0].submit()</script></body></html>',
    });
  });
}
