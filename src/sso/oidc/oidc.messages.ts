import { TokenEndpointAuthMethod } from '../../database/entities/sso.entity';

/**
 * The reasons of OpenID Connect's refusals, in the order the checks run: docs/sso.md lists each one
 * word for word ("Why an OpenID Connect sign-in was refused"), and test/sso-oidc-reasons.e2e-spec.ts
 * sends every one of them.
 */

/** An epoch time as the reasons show it. */
const at = (seconds: number) => new Date(seconds * 1000).toISOString();
/** The provider's own words, when it gave some: ` (description)`, cut short. */
const described = (description: unknown) =>
  typeof description === 'string' && description !== '' ? ` (${description.slice(0, 200)})` : '';
const times = (now: number, skew: number) => `now ${at(now)}, skew ${skew} s`;

/** The other method, which a refusal of the client suggests. */
export const otherAuthMethod = (method: TokenEndpointAuthMethod): TokenEndpointAuthMethod =>
  method === 'client_secret_basic' ? 'client_secret_post' : 'client_secret_basic';

export const OIDC_REASONS = {
  stateMissing: 'state missing',
  providerAnswered: (error: string, description?: string) => `the provider answered ${error}${described(description)}`,
  codeMissing: 'code missing',
  redirectIssuer: (expected: string, got: string) =>
    `iss mismatch: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)} in the provider's redirect`,
  redirectIssuerMissing: "the provider's redirect has no iss parameter, which its discovery document promises",
  secretUnreadable:
    'no key of SSO_SECRETS_KEY opens the stored client secret: an owner re-enters the client secret ' +
    '(PATCH the connection with its clientSecret)',
  tokenEndpointUnreachable: (detail: string) => `the token endpoint could not be reached: ${detail}`,
  clientRefused: (error: string, description: string | undefined, method: TokenEndpointAuthMethod) =>
    `the token endpoint refused the client: ${error}${described(description)}; the client authenticated by ` +
    `${method}: check the client id and secret, or try ${otherAuthMethod(method)} ` +
    `(PATCH the connection with {"tokenEndpointAuthMethod":"${otherAuthMethod(method)}"})`,
  codeRefused: (error: string, description?: string) =>
    `the token endpoint refused the code: ${error}${described(description)}`,
  tokenEndpointStatus: (status: number) => `the token endpoint answered HTTP ${status} without an OAuth error`,
  notATokenResponse: 'the token endpoint did not answer a token response (JSON with access_token and token_type)',
  noIdToken: 'the token endpoint answered no ID token',
  algorithm: (alg: unknown, allowed: string[]) =>
    `alg: the ID token is signed with ${JSON.stringify(alg)}, not one of ${allowed.join(', ')}`,
  noKey: (kid: unknown, jwksUri: string) =>
    `signature: no key of the provider's JWKS (${jwksUri}) has the ID token's kid ${JSON.stringify(kid ?? null)}`,
  signature: (jwksUri: string) =>
    `signature: the ID token's signature does not verify with the provider's key (JWKS ${jwksUri})`,
  claimMismatch: (claim: 'iss' | 'aud' | 'azp', expected: unknown, got: unknown) =>
    `${claim} mismatch: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got ?? null)}`,
  nonce: "nonce mismatch: the ID token's nonce is not the one this sign-in sent",
  expired: (exp: number, now: number, skew: number) => `exp: the ID token expired at ${at(exp)} (${times(now, skew)})`,
  notYetValid: (nbf: number, now: number, skew: number) =>
    `nbf: the ID token is not valid before ${at(nbf)} (${times(now, skew)})`,
  issuedInFuture: (iat: number, now: number, skew: number) =>
    `iat: the ID token was issued at ${at(iat)}, in the future (${times(now, skew)})`,
  missingClaim: (claim: string) => `the ID token has no ${claim} claim`,
  emailUnverified: 'email_verified is false',
  /** What no check above names: the library's words, as the last resort. */
  otherwise: (detail: string) => `the token response was refused: ${detail}`,
} as const;
