/**
 * The pure rules of setup links (docs/setup-links.md): a link's status, its intents, its token and
 * the setup session's cookie value, which names the link and is signed with a key and the token's hash.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SETUP_SESSION_COOKIE } from '../common/openapi';
import { SETUP_INTENTS, SetupIntent, SetupLinkEntity } from '../database/entities/setup-link.entity';

export const SETUP_LINK_STATUSES = ['open', 'completed', 'revoked', 'expired'] as const;
export type SetupLinkStatus = (typeof SETUP_LINK_STATUSES)[number];

/** Where an opened link leads. */
export const SETUP_PAGE_PATH = '/setup';

type LinkState = Pick<SetupLinkEntity, 'revokedAt' | 'completedAt' | 'expiresAt'>;

/** Revoked and completed are final; otherwise open until `expiresAt`. */
export function linkStatus(link: LinkState, now: Date): SetupLinkStatus {
  if (link.revokedAt) return 'revoked';
  if (link.completedAt) return 'completed';
  return link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'open';
}

/** The stored intents, in SETUP_INTENTS' order. */
export const intentsOf = (link: Pick<SetupLinkEntity, 'intents'>): SetupIntent[] =>
  SETUP_INTENTS.filter((intent) => link.intents.split(',').includes(intent));

/** The intents as stored: distinct, in SETUP_INTENTS' order. */
export const storedIntents = (intents: readonly SetupIntent[]): string =>
  SETUP_INTENTS.filter((intent) => intents.includes(intent)).join(',');

/** 256 random bits, URL-safe. */
export const newLinkToken = (): string => randomBytes(32).toString('base64url');

/**
 * Test mode's token (docs/test-mode.md): derived from TEST_MODE_KEY and the link's id, so that
 * `GET /api/test/setup-links/{id}` can give it back while only its hash is stored.
 */
export const testModeLinkToken = (testModeKey: string, linkId: string): string =>
  createHmac('sha256', testModeKey).update(`setup-link:${linkId}`).digest('base64url');

/** SHA-256 of the token, hex: a 256-bit random secret needs no slow hash. */
export const hashLinkToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** What a token may look like before it is looked up: base64url, as made. */
export const isTokenShaped = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

const mac = (key: string, linkId: string, expires: number, tokenHash: string) =>
  createHmac('sha256', key).update(`setup-session:${linkId}:${expires}:${tokenHash}`).digest('base64url');

/**
 * The setup session's value: `<link id>.<expiry, epoch seconds>.<signature>`, signed with the
 * service's key over the link's token hash, so that neither the key nor the database alone makes one.
 */
export function setupSessionValue(key: string, link: Pick<SetupLinkEntity, 'id' | 'tokenHash' | 'expiresAt'>): string {
  const expires = Math.floor(link.expiresAt.getTime() / 1000);
  return `${link.id}.${expires}.${mac(key, link.id, expires, link.tokenHash)}`;
}

/** The link a session value names, before its signature is checked against the link's row. */
export function sessionLinkId(value: string): string | null {
  const parts = value.split('.');
  return parts.length === 3 && /^[0-9a-f-]{36}$/.test(parts[0]) && /^\d{1,12}$/.test(parts[1]) ? parts[0] : null;
}

/** Whether `value` is the session of this link, signed with `key`, and not past its time. */
export function isSessionOf(
  key: string,
  value: string,
  link: Pick<SetupLinkEntity, 'id' | 'tokenHash'>,
  now: Date,
): boolean {
  const [linkId, expires, signature] = value.split('.');
  if (linkId !== link.id || Number(expires) * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(mac(key, link.id, Number(expires), link.tokenHash));
  const given = Buffer.from(signature ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The cookie's life: the link's remaining seconds, never more. */
export const sessionMaxAge = (link: Pick<SetupLinkEntity, 'expiresAt'>, now: Date): number =>
  Math.max(0, Math.floor((link.expiresAt.getTime() - now.getTime()) / 1000));

/** The setup session's cookie: HttpOnly, SameSite=Strict, Path=/, no longer than the link. */
export const setupSessionCookie = (value: string, maxAgeSeconds: number, secure: boolean): string =>
  `${SETUP_SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

/** The link's address, as the owner sends it. */
export const setupLinkUrl = (base: string, token: string): string => `${base}/setup/${token}`;
