import { messageOf } from '../../common/api-error';
import { TokenEndpointAuthMethod } from '../../database/entities/sso.entity';
import { SsoFetchError } from '../sso-http';
import { OIDC_REASONS } from './oidc.messages';

/**
 * Which check of a code exchange failed, in this service's words (oidc.messages.ts). openid-client
 * (on oauth4webapi) refuses; what it refused is read from the error's class, its `code` and the
 * facts it carries (the claim, what was expected, the token's header and claims, the time and the
 * tolerance), never from its message, which serves only as the last resort.
 */

/** What a reason names beside the error: the connection's side of each check. */
export interface ExchangeContext {
  authMethod: TokenEndpointAuthMethod;
  jwksUri: string;
  algorithms: string[];
  skewSeconds: number;
}

/** The error classes of oauth4webapi that a reason tells apart (openid-client re-exports them). */
export interface OAuthErrorClasses {
  ResponseBodyError: abstract new (...args: never[]) => Error & { error: string; error_description?: string };
  WWWAuthenticateChallengeError: abstract new (...args: never[]) => Error & {
    cause: { parameters: { error?: string; error_description?: string } }[];
    status: number;
  };
}

/** oauth4webapi's codes (its OperationProcessingError's `code`). */
const CODES = {
  claimComparison: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  timestamp: 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  keySelection: 'OAUTH_KEY_SELECTION_FAILED',
  notConform: 'OAUTH_RESPONSE_IS_NOT_CONFORM',
  notJson: 'OAUTH_RESPONSE_IS_NOT_JSON',
  invalidResponse: 'OAUTH_INVALID_RESPONSE',
} as const;

/** The errors a client authentication failure is answered with (RFC 6749 §5.2). */
const CLIENT_REFUSED = ['invalid_client', 'unauthorized_client'];

type Facts = Record<string, unknown>;
const isFacts = (value: unknown): value is Facts => typeof value === 'object' && value !== null;

/** The chain of errors, outermost first: openid-client wraps oauth4webapi's, whose `cause` holds its facts. */
function chainOf(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let current = error; current instanceof Error && chain.length < 10; current = current.cause) chain.push(current);
  return chain;
}

/** The reason of a refused code exchange. */
export function exchangeRefusal(error: unknown, context: ExchangeContext, classes: OAuthErrorClasses): string {
  const chain = chainOf(error);
  const fetchError = chain.find((link) => link instanceof SsoFetchError);
  if (fetchError) return OIDC_REASONS.tokenEndpointUnreachable(fetchError.message);
  const body = chain.find((link) => link instanceof classes.ResponseBodyError);
  if (body instanceof classes.ResponseBodyError) return endpointError(body.error, body.error_description, context);
  const challenge = chain.find((link) => link instanceof classes.WWWAuthenticateChallengeError);
  if (challenge instanceof classes.WWWAuthenticateChallengeError) {
    const parameters = challenge.cause.find((item) => item.parameters.error)?.parameters;
    return parameters?.error
      ? endpointError(parameters.error, parameters.error_description, context)
      : OIDC_REASONS.tokenEndpointStatus(challenge.status);
  }
  // The innermost first: openid-client's wrapper repeats the code with oauth4webapi's error as its cause.
  for (const link of [...chain].reverse()) {
    const reason = checkOf((link as Error & { code?: unknown }).code, link.cause, context);
    if (reason) return reason;
  }
  return OIDC_REASONS.otherwise(messageOf(chain[chain.length - 1] ?? error).slice(0, 300));
}

function endpointError(error: string, description: string | undefined, context: ExchangeContext): string {
  return CLIENT_REFUSED.includes(error)
    ? OIDC_REASONS.clientRefused(error, description, context.authMethod)
    : OIDC_REASONS.codeRefused(error, description);
}

/** The check that one of oauth4webapi's errors names, from its code and facts; undefined when it names none. */
function checkOf(code: unknown, facts: unknown, context: ExchangeContext): string | undefined {
  if ((code === CODES.notConform || code === CODES.notJson) && facts instanceof Response)
    return facts.status === 200 ? OIDC_REASONS.notATokenResponse : OIDC_REASONS.tokenEndpointStatus(facts.status);
  if (!isFacts(facts)) return undefined;
  const claims = isFacts(facts.claims) ? facts.claims : {};
  const header = isFacts(facts.header) ? facts.header : {};
  if (code === CODES.keySelection) return OIDC_REASONS.noKey(header.kid, context.jwksUri);
  if (code === CODES.claimComparison) {
    const { claim } = facts;
    if (claim === 'nonce') return OIDC_REASONS.nonce;
    if (claim === 'iss' || claim === 'aud' || claim === 'azp')
      return OIDC_REASONS.claimMismatch(claim, facts.expected, claims[claim]);
    return undefined;
  }
  if (code === CODES.timestamp && typeof facts.now === 'number') {
    const value = claims[String(facts.claim)];
    if (typeof value !== 'number') return undefined;
    if (facts.claim === 'exp') return OIDC_REASONS.expired(value, facts.now, context.skewSeconds);
    if (facts.claim === 'nbf') return OIDC_REASONS.notYetValid(value, facts.now, context.skewSeconds);
    return undefined;
  }
  if (code === CODES.invalidResponse && facts.parameters instanceof URLSearchParams) {
    // The redirect's own parameters (RFC 9207's iss), checked before the code is exchanged.
    const iss = facts.parameters.get('iss');
    if (iss === null) return OIDC_REASONS.redirectIssuerMissing;
    if (typeof facts.expected === 'string') return OIDC_REASONS.redirectIssuer(facts.expected, iss);
  }
  if (code === CODES.invalidResponse) {
    // A signature that does not verify carries the signature and the key; an algorithm refused, the header.
    if ('signature' in facts && 'key' in facts) return OIDC_REASONS.signature(context.jwksUri);
    if ('alg' in header && 'expected' in facts) return OIDC_REASONS.algorithm(header.alg, context.algorithms);
    if (isFacts(facts.body)) {
      const { body } = facts;
      if (typeof body.access_token !== 'string' || typeof body.token_type !== 'string')
        return OIDC_REASONS.notATokenResponse;
      if (body.id_token === undefined) return OIDC_REASONS.noIdToken;
    }
  }
  return undefined;
}
