import { DomainsConfig } from '../config/domains-config';
import { OrgDomainEntity } from '../database/entities';
import { DomainStatus } from '../database/entities/org-domain.entity';
import { CheckResult } from './dto/domain.response';

/**
 * A claim's life as docs/domains.md tells it ("Proof by DNS", "States", "Re-checks"), in plain
 * functions: what its TXT record says, the status it shows at a given time, and what a check, a
 * rotation or an operator's release makes of it. DomainsService reads and writes; these decide.
 */

/** The TXT record's name is `_tenant-verification.<domain>`, its value `tenant-verification=<token>`. */
export const RECORD_LABEL = '_tenant-verification';
export const RECORD_PREFIX = 'tenant-verification=';
export const recordName = (name: string) => `${RECORD_LABEL}.${name}`;
export const recordValue = (token: string) => `${RECORD_PREFIX}${token}`;

/** The settings that time a claim, in seconds. */
export type VerificationSettings = Pick<DomainsConfig, 'verificationTtlSeconds' | 'recheckSeconds' | 'graceSeconds'>;

/** What a claim's state changes to; the keys in the order they are written. */
export type ClaimChanges = Partial<
  Pick<
    OrgDomainEntity,
    | 'status'
    | 'token'
    | 'tokenIssuedAt'
    | 'lastCheckAt'
    | 'lastCheckResult'
    | 'verifiedAt'
    | 'graceEndsAt'
    | 'nextCheckAt'
    | 'heldName'
  >
>;

/** The event a check records, with its data beside the domain's name. */
export interface CheckEvent {
  type: 'domain.verified' | 'domain.verification_failed' | 'domain.failing' | 'domain.lapsed';
  data: Record<string, unknown>;
}

/** What a check's result does to a claim: the changes, and the event, if any. */
export interface CheckTransition {
  changes: ClaimChanges;
  event: CheckEvent | null;
}

/** The TXT values at the claim's record name, judged: values that are not `tenant-verification=` records are ignored. */
export function judgeRecords(values: string[], token: string): CheckResult {
  const ours = values.filter((value) => value.startsWith(RECORD_PREFIX));
  if (ours.includes(recordValue(token))) return 'found';
  return ours.length > 0 ? 'token_mismatch' : 'record_not_found';
}

/** The token's window ends DOMAIN_VERIFICATION_TTL_SECONDS after it was issued. */
export const verificationWindowEnd = (claim: Pick<OrgDomainEntity, 'tokenIssuedAt'>, settings: VerificationSettings) =>
  new Date(claim.tokenIssuedAt.getTime() + settings.verificationTtlSeconds * 1000);

/** A pending claim past its window (not at its end) is expired, whatever is stored. */
export const isExpired = (
  claim: Pick<OrgDomainEntity, 'status' | 'tokenIssuedAt'>,
  now: Date,
  settings: VerificationSettings,
): boolean => claim.status === 'pending' && verificationWindowEnd(claim, settings).getTime() < now.getTime();

/** The status a claim is shown, and answered, with at `now`. */
export const shownStatus = (
  claim: Pick<OrgDomainEntity, 'status' | 'tokenIssuedAt'>,
  now: Date,
  settings: VerificationSettings,
): DomainStatus => (isExpired(claim, now, settings) ? 'expired' : claim.status);

/** Why a claim cannot be verified now (410 VERIFICATION_EXPIRED, 409 DOMAIN_LAPSED), or null. */
export function verifyRefusal(
  claim: Pick<OrgDomainEntity, 'status' | 'tokenIssuedAt'>,
  now: Date,
  settings: VerificationSettings,
): 'expired' | 'lapsed' | null {
  if (shownStatus(claim, now, settings) === 'expired') return 'expired';
  return claim.status === 'lapsed' ? 'lapsed' : null;
}

/** Only a claim that does not hold its name (pending, expired, lapsed) gets a new token. */
export const canRotate = (claim: Pick<OrgDomainEntity, 'status'>): boolean =>
  claim.status !== 'verified' && claim.status !== 'failing';

/** A new token and a new window: the claim is pending again, with no grace and no re-check. */
export const rotation = (token: string, now: Date): ClaimChanges => ({
  status: 'pending',
  token,
  tokenIssuedAt: now,
  graceEndsAt: null,
  nextCheckAt: null,
});

/** An operator's release: the claim lapses and the name is free at once. */
export const RELEASE: Readonly<ClaimChanges> = Object.freeze({
  status: 'lapsed',
  heldName: null,
  nextCheckAt: null,
  graceEndsAt: null,
});

/** A verified or failing claim is re-checked DOMAIN_RECHECK_SECONDS after its last check (or the claim of one). */
export const nextCheckTime = (now: Date, settings: VerificationSettings) =>
  new Date(now.getTime() + settings.recheckSeconds * 1000);

/**
 * What a check's result at `now` does to the claim (docs/domains.md, "States" and "Re-checks").
 * Every check is recorded; a claim that holds its name after it is re-checked at nextCheckTime.
 */
export function checkTransition(
  claim: Pick<OrgDomainEntity, 'name' | 'status' | 'graceEndsAt'>,
  result: CheckResult,
  now: Date,
  settings: VerificationSettings,
): CheckTransition {
  const checked: ClaimChanges = { lastCheckAt: now, lastCheckResult: result };
  const event = (type: CheckEvent['type'], data: Record<string, unknown> = {}): CheckEvent => ({
    type,
    data: { result, ...data },
  });
  const found = result === 'found';
  const nextCheckAt = nextCheckTime(now, settings);
  if (claim.status === 'pending') {
    if (!found) return { changes: checked, event: event('domain.verification_failed') };
    return {
      changes: {
        ...checked,
        status: 'verified',
        heldName: claim.name,
        verifiedAt: now,
        graceEndsAt: null,
        nextCheckAt,
      },
      event: event('domain.verified'),
    };
  }
  if (found) {
    if (claim.status === 'failing')
      return {
        changes: { ...checked, status: 'verified', graceEndsAt: null, nextCheckAt },
        event: event('domain.verified', { recovered: true }),
      };
    return { changes: { ...checked, nextCheckAt }, event: null };
  }
  if (claim.status === 'verified') {
    const graceEndsAt = new Date(now.getTime() + settings.graceSeconds * 1000);
    return {
      changes: { ...checked, status: 'failing', graceEndsAt, nextCheckAt },
      event: event('domain.failing', { graceEndsAt: graceEndsAt.toISOString() }),
    };
  }
  // Failing: past the grace (or at its end) it lapses, and the name is free.
  if (claim.graceEndsAt && claim.graceEndsAt.getTime() <= now.getTime())
    return {
      changes: { ...checked, status: 'lapsed', heldName: null, nextCheckAt: null },
      event: event('domain.lapsed'),
    };
  return { changes: { ...checked, nextCheckAt }, event: null };
}
