import { parseConfig } from '../config/app-config';
import { isCrossSite, pageVisitor, signInLink } from './page-visitor';

const TOKEN = '6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10';
const caller = { id: 'u-1', email: 'carol@example.com', userType: null, tenantId: null, role: null };
const request = (headers: Record<string, string>) => ({ headers: { host: 'invites.example.com', ...headers } });

describe(isCrossSite.name, () => {
  it.each([
    ['the page’s own Origin', { origin: 'https://invites.example.com' }, false],
    ['another site’s Origin', { origin: 'https://evil.example' }, true],
    ['the same host on another port', { origin: 'https://invites.example.com:8443' }, true],
    ['Origin null (a sandboxed frame) and nothing else', { origin: 'null' }, true],
    [
      'Origin null (the page’s own form, no-referrer) with Sec-Fetch-Site same-origin',
      { origin: 'null', 'sec-fetch-site': 'same-origin' },
      false,
    ],
    [
      'the page’s own Origin, but Sec-Fetch-Site cross-site',
      { origin: 'https://invites.example.com', 'sec-fetch-site': 'cross-site' },
      true,
    ],
    ['no Origin, Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, false],
    ['no Origin, Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, true],
    ['no Origin, Sec-Fetch-Site same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }, true],
    ['neither: not a browser', {}, false],
  ])('%s: %p', (_, headers, crossSite) => {
    expect(isCrossSite(request(headers))).toBe(crossSite);
  });
});

describe(signInLink.name, () => {
  it('is absent without SIGN_IN_URL', () => {
    expect(signInLink(parseConfig({}), request({}), TOKEN)).toBeUndefined();
  });

  it('returns to the page on PUBLIC_BASE_URL, whatever Host the request named, keeping the sign-in URL’s own query', () => {
    const config = parseConfig({
      SIGN_IN_URL: 'https://id.example.com/login?client=portal',
      PUBLIC_BASE_URL: 'https://invites.example.com/',
    });
    const link = new URL(signInLink(config, { headers: { host: 'evil.example' } }, TOKEN)!);
    expect(link.origin + link.pathname).toBe('https://id.example.com/login');
    expect(link.searchParams.get('client')).toBe('portal');
    expect(link.searchParams.get('return_to')).toBe(`https://invites.example.com/invitations/${TOKEN}`);
  });

  it('with ALLOWED_HOSTS only, returns to the request’s host, which the hosts filter has vetted', () => {
    const config = parseConfig({ SIGN_IN_URL: 'https://id.example.com/login', ALLOWED_HOSTS: 'invites.example.com' });
    const link = new URL(signInLink(config, request({ 'x-forwarded-proto': 'https' }), TOKEN)!);
    expect(link.searchParams.get('return_to')).toBe(`https://invites.example.com/invitations/${TOKEN}`);
  });
});

describe(pageVisitor.name, () => {
  const config = parseConfig({});

  it('a session acts on a POST only from the page’s own origin; a GET only shows it', () => {
    expect(pageVisitor(config, request({ origin: 'https://invites.example.com' }), caller, TOKEN, true)).toEqual({
      caller,
    });
    expect(pageVisitor(config, request({ origin: 'https://evil.example' }), caller, TOKEN, true)).toEqual({});
    expect(pageVisitor(config, request({ origin: 'https://evil.example' }), caller, TOKEN, false)).toEqual({ caller });
    expect(pageVisitor(config, request({}), undefined, TOKEN, true)).toEqual({});
  });
});
