import { DomainStatus } from '../database/entities/org-domain.entity';
import {
  canRotate,
  checkTransition,
  isExpired,
  judgeRecords,
  nextCheckTime,
  RELEASE,
  rotation,
  shownStatus,
  verificationWindowEnd,
  verifyRefusal,
} from './domain-verification';

const SETTINGS = { verificationTtlSeconds: 7 * 86_400, recheckSeconds: 3_600, graceSeconds: 259_200 };
const NOW = new Date('2026-03-01T12:00:00.000Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const NEXT_CHECK = later(SETTINGS.recheckSeconds);
const claim = (status: DomainStatus, graceEndsAt: Date | null = null) => ({ name: 'acme.com', status, graceEndsAt });
/** A claim whose token was issued `ageSeconds` before NOW. */
const issued = (status: DomainStatus, ageSeconds: number) => ({ status, tokenIssuedAt: later(-ageSeconds) });

describe('domain verification', () => {
  describe('the TXT record', () => {
    it('found: a tenant-verification= record with the claim’s token, whatever other TXT records are there', () => {
      expect(judgeRecords(['v=spf1 -all', 'tenant-verification=other', 'tenant-verification=tok'], 'tok')).toBe(
        'found',
      );
    });

    it('token_mismatch: a tenant-verification= record is there, with another token', () => {
      expect(judgeRecords(['tenant-verification=other', 'v=spf1 -all'], 'tok')).toBe('token_mismatch');
    });

    it('record_not_found: no tenant-verification= record at the name, other TXT records ignored', () => {
      expect(judgeRecords([], 'tok')).toBe('record_not_found');
      expect(judgeRecords(['v=spf1 -all', 'tok'], 'tok')).toBe('record_not_found');
    });
  });

  describe('the verification window', () => {
    it('ends DOMAIN_VERIFICATION_TTL_SECONDS after the token was issued', () => {
      expect(verificationWindowEnd({ tokenIssuedAt: NOW }, SETTINGS)).toEqual(later(SETTINGS.verificationTtlSeconds));
    });

    it('a pending claim past its window is expired; at its end it is not yet', () => {
      expect(isExpired(issued('pending', SETTINGS.verificationTtlSeconds + 1), NOW, SETTINGS)).toBe(true);
      expect(isExpired(issued('pending', SETTINGS.verificationTtlSeconds), NOW, SETTINGS)).toBe(false);
    });

    it.each(['verified', 'failing', 'lapsed'] as const)('a %s claim never expires: its window is over', (status) => {
      const old = issued(status, 10 * SETTINGS.verificationTtlSeconds);
      expect(isExpired(old, NOW, SETTINGS)).toBe(false);
      expect(shownStatus(old, NOW, SETTINGS)).toBe(status);
    });

    it('a pending claim past its window is shown expired; within it, pending', () => {
      expect(shownStatus(issued('pending', SETTINGS.verificationTtlSeconds + 1), NOW, SETTINGS)).toBe('expired');
      expect(shownStatus(issued('pending', 0), NOW, SETTINGS)).toBe('pending');
    });
  });

  describe('verify', () => {
    it('410 VERIFICATION_EXPIRED for a pending claim past its window, or one stored expired', () => {
      expect(verifyRefusal(issued('pending', SETTINGS.verificationTtlSeconds + 1), NOW, SETTINGS)).toBe('expired');
      expect(verifyRefusal(issued('expired', 0), NOW, SETTINGS)).toBe('expired');
    });

    it('409 DOMAIN_LAPSED for a lapsed claim: rotate first', () => {
      expect(verifyRefusal(issued('lapsed', 0), NOW, SETTINGS)).toBe('lapsed');
    });

    it.each(['pending', 'verified', 'failing'] as const)('a %s claim within its window is checked', (status) => {
      expect(verifyRefusal(issued(status, 0), NOW, SETTINGS)).toBeNull();
    });
  });

  describe('a check of a pending claim', () => {
    it('found: verified, with verifiedAt, holding the name, re-checked after DOMAIN_RECHECK_SECONDS; domain.verified', () => {
      expect(checkTransition(claim('pending'), 'found', NOW, SETTINGS)).toEqual({
        changes: {
          lastCheckAt: NOW,
          lastCheckResult: 'found',
          status: 'verified',
          heldName: 'acme.com',
          verifiedAt: NOW,
          graceEndsAt: null,
          nextCheckAt: NEXT_CHECK,
        },
        event: { type: 'domain.verified', data: { result: 'found' } },
      });
    });

    it.each(['record_not_found', 'token_mismatch'] as const)(
      '%s: still pending, the check recorded; domain.verification_failed with the result',
      (result) => {
        expect(checkTransition(claim('pending'), result, NOW, SETTINGS)).toEqual({
          changes: { lastCheckAt: NOW, lastCheckResult: result },
          event: { type: 'domain.verification_failed', data: { result } },
        });
      },
    );
  });

  describe('a re-check of a verified claim', () => {
    it('a hit: still verified, the next re-check DOMAIN_RECHECK_SECONDS later; no event', () => {
      expect(checkTransition(claim('verified'), 'found', NOW, SETTINGS)).toEqual({
        changes: { lastCheckAt: NOW, lastCheckResult: 'found', nextCheckAt: NEXT_CHECK },
        event: null,
      });
    });

    it('a miss makes it failing, graceEndsAt = the miss + DOMAIN_GRACE_SECONDS; domain.failing', () => {
      const graceEndsAt = later(SETTINGS.graceSeconds);
      expect(checkTransition(claim('verified'), 'token_mismatch', NOW, SETTINGS)).toEqual({
        changes: {
          lastCheckAt: NOW,
          lastCheckResult: 'token_mismatch',
          status: 'failing',
          graceEndsAt,
          nextCheckAt: NEXT_CHECK,
        },
        event: { type: 'domain.failing', data: { result: 'token_mismatch', graceEndsAt: graceEndsAt.toISOString() } },
      });
    });
  });

  describe('a re-check of a failing claim', () => {
    it('the record’s return makes it verified again, without its grace; domain.verified, recovered', () => {
      expect(checkTransition(claim('failing', later(60)), 'found', NOW, SETTINGS)).toEqual({
        changes: {
          lastCheckAt: NOW,
          lastCheckResult: 'found',
          status: 'verified',
          graceEndsAt: null,
          nextCheckAt: NEXT_CHECK,
        },
        event: { type: 'domain.verified', data: { result: 'found', recovered: true } },
      });
    });

    it('a miss within the grace: still failing, the grace unchanged; no event', () => {
      expect(checkTransition(claim('failing', later(1)), 'record_not_found', NOW, SETTINGS)).toEqual({
        changes: { lastCheckAt: NOW, lastCheckResult: 'record_not_found', nextCheckAt: NEXT_CHECK },
        event: null,
      });
    });

    it.each([
      ['at its end', NOW],
      ['past it', later(-1)],
    ])('a miss %s of the grace makes it lapsed: the name free, no more re-checks; domain.lapsed', (_, graceEndsAt) => {
      expect(checkTransition(claim('failing', graceEndsAt), 'record_not_found', NOW, SETTINGS)).toEqual({
        changes: {
          lastCheckAt: NOW,
          lastCheckResult: 'record_not_found',
          status: 'lapsed',
          heldName: null,
          nextCheckAt: null,
        },
        event: { type: 'domain.lapsed', data: { result: 'record_not_found' } },
      });
    });
  });

  it('a re-check is due DOMAIN_RECHECK_SECONDS after the last', () => {
    expect(nextCheckTime(NOW, SETTINGS)).toEqual(NEXT_CHECK);
  });

  describe('rotate', () => {
    it.each([
      ['pending', true],
      ['expired', true],
      ['lapsed', true],
      ['verified', false],
      ['failing', false],
    ] as const)('a %s claim may get a new token: %p (else 409 DOMAIN_ALREADY_VERIFIED)', (status, allowed) => {
      expect(canRotate({ status })).toBe(allowed);
    });

    it('a new token and a new window: pending, with no grace and no re-check', () => {
      expect(rotation('new-token', NOW)).toEqual({
        status: 'pending',
        token: 'new-token',
        tokenIssuedAt: NOW,
        graceEndsAt: null,
        nextCheckAt: null,
      });
    });
  });

  it('an operator’s release makes the claim lapsed and frees the name at once', () => {
    expect(RELEASE).toEqual({ status: 'lapsed', heldName: null, nextCheckAt: null, graceEndsAt: null });
  });
});
