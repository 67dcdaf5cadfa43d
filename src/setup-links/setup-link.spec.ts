import {
  hashLinkToken,
  intentsOf,
  isSessionOf,
  isTokenShaped,
  linkStatus,
  newLinkToken,
  sessionLinkId,
  sessionMaxAge,
  setupSessionCookie,
  setupSessionValue,
  storedIntents,
  testModeLinkToken,
} from './setup-link';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const LATER = new Date('2026-03-02T12:00:00.000Z');
const link = { id: '6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10', tokenHash: hashLinkToken('t'), expiresAt: LATER };
const KEY = 'a key of the service';

describe(linkStatus.name, () => {
  const open = { revokedAt: null, completedAt: null, expiresAt: LATER };
  it.each([
    ['open until its expiry', open, 'open'],
    ['expired at its expiry, exactly', { ...open, expiresAt: NOW }, 'expired'],
    ['revoked whatever its expiry', { ...open, revokedAt: NOW, expiresAt: NOW }, 'revoked'],
    ['completed whatever its expiry', { ...open, completedAt: NOW, expiresAt: NOW }, 'completed'],
  ] as const)('%s', (_, state, status) => {
    expect(linkStatus(state, NOW)).toBe(status);
  });
});

describe('intents', () => {
  it('are stored distinct, in the steps’ order (domain, sso, scim), and read back so', () => {
    expect(storedIntents(['scim', 'domain'])).toBe('domain,scim');
    expect(intentsOf({ intents: 'domain,scim' })).toEqual(['domain', 'scim']);
    expect(intentsOf({ intents: 'scim,unknown' })).toEqual(['scim']);
  });
});

describe('tokens', () => {
  it('256 random bits, URL-safe; the hash is SHA-256 hex, never the token', () => {
    const token = newLinkToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(isTokenShaped(token)).toBe(true);
    expect(hashLinkToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(newLinkToken()).not.toBe(token);
  });

  it('test mode’s token is derived from TEST_MODE_KEY and the id: the same for both, another for another id', () => {
    expect(testModeLinkToken(KEY, link.id)).toBe(testModeLinkToken(KEY, link.id));
    expect(testModeLinkToken(KEY, link.id)).not.toBe(testModeLinkToken(KEY, 'other'));
    expect(isTokenShaped(testModeLinkToken(KEY, link.id))).toBe(true);
  });

  it.each(['', 'short', `${'A'.repeat(42)}=`, 'A'.repeat(44)])('%p is not a token', (token) => {
    expect(isTokenShaped(token)).toBe(false);
  });
});

describe('the setup session', () => {
  const value = setupSessionValue(KEY, link);

  it('names the link, and is its session until the link’s expiry', () => {
    expect(sessionLinkId(value)).toBe(link.id);
    expect(isSessionOf(KEY, value, link, NOW)).toBe(true);
    expect(isSessionOf(KEY, value, link, LATER)).toBe(false);
  });

  it.each([
    ['another key', () => isSessionOf('another key', value, link, NOW)],
    ['another token hash (a link made anew)', () => isSessionOf(KEY, value, { ...link, tokenHash: 'other' }, NOW)],
    ['another link', () => isSessionOf(KEY, value, { ...link, id: '00000000-0000-4000-8000-000000000000' }, NOW)],
    ['a changed expiry', () => isSessionOf(KEY, value.replace(/\.(\d+)\./, '.9999999999.'), link, NOW)],
    ['a cut signature', () => isSessionOf(KEY, value.slice(0, -2), link, NOW)],
  ])('is refused with %s', (_, check) => {
    expect(check()).toBe(false);
  });

  it.each(['', 'a.b.c', 'garbage', `${link.id}.x.sig`])('%p names no link', (text) => {
    expect(sessionLinkId(text)).toBeNull();
  });

  it('its cookie: HttpOnly, SameSite=Strict, Path=/, Max-Age the link’s remaining seconds; Secure over HTTPS', () => {
    expect(sessionMaxAge(link, NOW)).toBe(86_400);
    expect(sessionMaxAge(link, new Date(LATER.getTime() + 1000))).toBe(0);
    expect(setupSessionCookie('v', 60, false)).toBe('setup_session=v; Path=/; Max-Age=60; HttpOnly; SameSite=Strict');
    expect(setupSessionCookie('v', 60, true)).toMatch(/; Secure$/);
  });
});
