import { sessionLiveness } from './session-liveness';
import { ProbedSession, SessionProbe } from '../database/session-probe';

const NOW = new Date('2026-12-02T12:00:00.000Z');
const seconds = (n: number) => new Date(NOW.getTime() + n * 1000);
const session = (overrides: Partial<ProbedSession> = {}): ProbedSession => ({
  id: 'sid-1',
  userId: 'ann',
  tenantId: 't-1',
  lastUsedAt: seconds(-30),
  expiresAt: seconds(3600),
  idleSeconds: 0,
  revokedAt: null,
  connection: null,
  ...overrides,
});
const probe = (found: ProbedSession | null, notBefore: number | null = null): SessionProbe => ({
  session: found,
  notBefore,
});
const withSid = { userId: 'ann', sid: 'sid-1', issuedAt: NOW.getTime() / 1000 - 60 };
const withoutSid = { userId: 'ann', sid: null, issuedAt: NOW.getTime() / 1000 - 60 };

describe('sessionLiveness (docs/sessions.md, "Every request")', () => {
  it.each([
    ['no row: a forged or purged sid', probe(null), 'the session (sid) is unknown'],
    ['another person’s row', probe(session({ userId: 'bob' })), 'the session (sid) is unknown'],
    ['revoked', probe(session({ revokedAt: seconds(-1) })), 'the session was revoked'],
    ['past its expiry', probe(session({ expiresAt: NOW })), 'the session expired'],
    ['idle past its limit', probe(session({ idleSeconds: 30 })), 'the session was idle too long'],
  ])('a token with sid is no session when %s', (_, found, why) => {
    expect(sessionLiveness(withSid, found, NOW, 60)).toEqual({ live: false, why });
  });

  it('a live one: its last use written once SESSION_TOUCH_SECONDS have passed, not before', () => {
    expect(sessionLiveness(withSid, probe(session()), NOW, 60)).toEqual({ live: true, sso: null, touch: false });
    expect(sessionLiveness(withSid, probe(session()), NOW, 30)).toEqual({ live: true, sso: null, touch: true });
  });

  it('a session of a connection names it as it is now: active or not, and its organisation', () => {
    const connection = { id: 'c-1', tenantId: 't-1', status: 'inactive' as const };
    expect(sessionLiveness(withSid, probe(session({ connection })), NOW, 60)).toMatchObject({
      live: true,
      sso: { connectionId: 'c-1', tenantId: 't-1', active: false },
    });
  });

  it('a token without sid: refused when issued before the person’s "not before", or without iat while one is set', () => {
    const before = NOW.getTime() / 1000 - 59;
    const refused = { live: false, why: "the token was issued before its person's sessions were ended" };
    expect(sessionLiveness(withoutSid, probe(null, before), NOW, 60)).toEqual(refused);
    expect(sessionLiveness({ ...withoutSid, issuedAt: undefined }, probe(null, before), NOW, 60)).toEqual(refused);
    expect(sessionLiveness(withoutSid, probe(null, before - 1), NOW, 60)).toEqual({
      live: true,
      sso: null,
      touch: false,
    });
    expect(sessionLiveness(withoutSid, probe(null), NOW, 60)).toEqual({ live: true, sso: null, touch: false });
  });
});
