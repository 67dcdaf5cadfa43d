import { acceptedReturnTo, RETURN_REFUSED } from '../common/return-to';
import { HttpStatus } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SsoConnectionEntity, SsoRequestEntity } from '../database/entities';
import { SsoConnectionType } from '../database/entities/sso.entity';
import { SSO_ERRORS, SsoErrorCode } from './sso.messages';

/**
 * What a protocol adapter (oidc/, saml/) and the protocol-neutral sign-in exchange (docs/sso.md,
 * "Signing in"): the adapter turns the provider's answer into a verified person or a refusal; the
 * sign-in does the rest. An adapter knows nothing of memberships or sessions.
 */

/** How long a sign-in sent to the provider may take to come back. */
export const REQUEST_TTL_MS = 10 * 60_000;

/** An address: at most 64 characters before the @, 253 after, no space. */
export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

/** The secrets of a pending sign-in: OIDC's state, nonce and PKCE verifier; SAML's AuthnRequest ID as its state. */
export type RequestSecrets = Pick<SsoRequestEntity, 'state' | 'nonce' | 'codeVerifier'>;

/** The person the provider proved, and the sign-in the answer belongs to. */
export interface VerifiedPerson {
  connection: SsoConnectionEntity;
  subject: string;
  /** Lower case, an address. */
  email: string;
  /** The e-mail as the provider sent it, which the attempt records. */
  sentEmail: string;
  groups: string[];
  /** An owner's test sign-in, or a sign-in; an unsolicited SAML response is a sign-in. */
  purpose: SsoRequestEntity['purpose'];
  /** Where the browser goes once signed in: a path of this service or an address on SSO_RETURN_ORIGINS. */
  returnTo: string;
}

/** A check that failed: the answer's status and code, and the check in words (the reason, the attempt's detail). */
export interface FailedCheck {
  status: HttpStatus;
  code: SsoErrorCode;
  reason: string;
}

/** A refused answer, with what was known of the person when the check failed (for the attempt). */
export interface CallbackRefusal extends FailedCheck {
  email: string | null;
  subject: string | null;
  /** An owner's test sign-in. */
  test: boolean;
}

export type CallbackVerdict = { person: VerifiedPerson } | { refused: CallbackRefusal };

/** A refusal verdict; `known`: what the checks so far told of the person. */
export const refusedWith = (
  check: FailedCheck,
  known: Partial<Pick<CallbackRefusal, 'email' | 'subject' | 'test'>> = {},
): CallbackVerdict => ({
  refused: { ...check, email: known.email ?? null, subject: known.subject ?? null, test: known.test ?? false },
});

export const failedCheck = (status: HttpStatus, code: SsoErrorCode, reason: string): FailedCheck => ({
  status,
  code,
  reason,
});

/** A start that the connection's own state refuses (its client secret unreadable): recorded as an attempt. */
export class StartRefused extends Error {
  constructor(readonly check: FailedCheck) {
    super(check.reason);
  }
}

/** One protocol's side of a sign-in: the way to the provider and the check of its answer (`Message`). */
export interface SsoProtocol<Message> {
  readonly type: SsoConnectionType;
  newRequestSecrets(): RequestSecrets;
  /** Where the browser goes for the pending sign-in of `secrets`; throws StartRefused when the connection cannot start one. */
  providerAddress(
    connection: SsoConnectionEntity,
    secrets: RequestSecrets,
    base: string,
    loginHint?: string,
  ): Promise<string>;
  /** The pending sign-in the answer names, unverified: only to tell whether it is a test of a connection not active. */
  claimedRequest(message: Message): string | undefined;
  /** Every check of the answer, in order. */
  verify(connection: SsoConnectionEntity, message: Message, base: string): Promise<CallbackVerdict>;
}

export { RETURN_REFUSED };
export const returnRefused = () => failedCheck(HttpStatus.BAD_REQUEST, SSO_ERRORS.returnRefused, RETURN_REFUSED);

/** Where a sign-in without returnTo lands when SSO_DEFAULT_RETURN_TO is unset: this service's signed-in page. */
export const SIGNED_IN_PATH = '/sso/signed-in';

/** The returnTo of a sign-in, by the rule (null: refused); none given: SSO_DEFAULT_RETURN_TO, else the signed-in page. */
export function returnToOf(value: unknown, config: AppConfig, base: string): string | null {
  if (value === undefined || value === '') return config.sso.defaultReturnTo ?? SIGNED_IN_PATH;
  return acceptedReturnTo(value, returnOrigins(config, base));
}

/** Where a sign-in may return: this service, and SSO_RETURN_ORIGINS. */
export const returnOrigins = (config: AppConfig, base: string): string[] => [
  new URL(base).origin,
  ...config.sso.returnOrigins,
];

/** A query parameter or form field given once, as a string. */
export function single(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
