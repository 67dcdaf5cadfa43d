import { InvitationStatus } from '../database/entities/invitation.entity';
import { acceptanceRefusal, effectiveStatus, isExpired, isOpen, tenantDisplayName } from './invitation';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const PAST = new Date(NOW.getTime() - 1);
const FUTURE = new Date(NOW.getTime() + 1);
const invitation = (status: InvitationStatus, expiresAt: Date) => ({ status, expiresAt });

describe('invitation', () => {
  it('expires after expiresAt, not at it', () => {
    expect(isExpired({ expiresAt: PAST }, NOW)).toBe(true);
    expect(isExpired({ expiresAt: NOW }, NOW)).toBe(false);
    expect(isExpired({ expiresAt: FUTURE }, NOW)).toBe(false);
  });

  it.each([
    ['pending', FUTURE, 'pending'],
    ['pending', PAST, 'expired'],
    ['expired', PAST, 'expired'],
    ['accepted', PAST, 'accepted'],
    ['revoked', PAST, 'revoked'],
  ] as const)('a %s invitation, expiring at %s, is effectively %s', (status, expiresAt, effective) => {
    expect(effectiveStatus(invitation(status, expiresAt), NOW)).toBe(effective);
  });

  it.each([
    ['pending', true],
    ['expired', true],
    ['accepted', false],
    ['revoked', false],
  ] as const)('a %s invitation is open: %p', (status, open) => {
    expect(isOpen({ status })).toBe(open);
  });

  it.each([
    ['no invitation', null, 'unknown'],
    ['a revoked one, even unexpired', invitation('revoked', FUTURE), 'unknown'],
    ['an accepted one, even expired', invitation('accepted', PAST), 'alreadyAccepted'],
    ['a pending one past expiresAt', invitation('pending', PAST), 'expired'],
    ['a stored-expired one', invitation('expired', PAST), 'expired'],
    ['a pending one before expiresAt', invitation('pending', FUTURE), null],
  ] as const)('acceptance refuses %s as %p', (_, subject, refusal) => {
    expect(acceptanceRefusal(subject, NOW)).toBe(refusal);
  });

  it('names a tenant without a name "Organisation"', () => {
    expect(tenantDisplayName('Acme')).toBe('Acme');
    expect(tenantDisplayName(null)).toBe('Organisation');
    expect(tenantDisplayName('  ')).toBe('Organisation');
  });
});
