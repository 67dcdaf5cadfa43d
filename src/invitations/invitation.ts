import { InvitationEntity } from '../database/entities';
import { InvitationStatus } from '../database/entities/invitation.entity';

/**
 * What an invitation's state means, in one place: when it expires, the status it has at a given
 * time, and what may still be done with it. InvitationsStore's conditional updates and status
 * filters are these rules in SQL.
 */

/** Spec 4.9 rule 9: an invitation is valid for 7 days from its creation. */
export const INVITATION_VALIDITY_MS = 7 * 24 * 60 * 60 * 1_000;

/** IsEmail lets control characters through in a quoted local part: CR/LF there would reach the e-mail's headers. */
export const NO_CONTROL_CHARACTERS = /^\P{Cc}*$/u;

/** Spec section 2: the display name of a tenant without a name. */
export const DEFAULT_TENANT_NAME = 'Organisation';
export const tenantDisplayName = (name: string | null): string => (name?.trim() ? name : DEFAULT_TENANT_NAME);

/** The stored statuses of an invitation that can still be accepted, revoked or resent (expiry aside). */
export const OPEN_STATUSES: InvitationStatus[] = ['pending', 'expired'];

type InvitationState = Pick<InvitationEntity, 'status' | 'expiresAt'>;

/** Neither accepted nor revoked: it may still be revoked or resent, expired or not. */
export const isOpen = (invitation: Pick<InvitationEntity, 'status'>): boolean =>
  OPEN_STATUSES.includes(invitation.status);

/** Spec section 3: expiry is judged by expiresAt, whatever the stored status says. */
export const isExpired = (invitation: Pick<InvitationEntity, 'expiresAt'>, now: Date): boolean =>
  invitation.expiresAt.getTime() < now.getTime();

/** The status an invitation has at `now`, whatever is stored: pending past its expiry is expired. */
export function effectiveStatus(invitation: InvitationState, now: Date): InvitationStatus {
  return invitation.status === 'pending' && isExpired(invitation, now) ? 'expired' : invitation.status;
}

/** Why a token's invitation cannot be accepted (spec 4.1 and 4.2 rules 2–4). */
export type AcceptanceRefusal = 'unknown' | 'alreadyAccepted' | 'expired';

/**
 * The first of spec 4.1 and 4.2 rules 2–4 that the invitation fails at `now`, or null when it may
 * be accepted. A revoked invitation is an unknown one: its token is dead. An accepted one is
 * "already used" even past its expiry.
 */
export function acceptanceRefusal(invitation: InvitationState | null, now: Date): AcceptanceRefusal | null {
  if (!invitation || invitation.status === 'revoked') return 'unknown';
  if (invitation.status === 'accepted') return 'alreadyAccepted';
  return isExpired(invitation, now) ? 'expired' : null;
}
