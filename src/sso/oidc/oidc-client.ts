import { Injectable } from '@nestjs/common';
import type * as OpenId from 'openid-client';
import { messageOf } from '../../common/api-error';
import { AppConfig } from '../../config/app-config';
import { SsoFetchError, SsoHttp } from '../sso-http';

/**
 * openid-client is an ES module only: Node requires it as it is (require(esm)), but a test runner's
 * module system may not (a QA team's jest that loads the app in-process, as examples/qa-suite does).
 * It is required at the first single sign-on, so that loading the app never needs it.
 */
let libraries: { oidc: typeof OpenId } | undefined;
const loaded = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use, see above
  (libraries ??= { oidc: require('openid-client') as typeof OpenId });

/** The ID token algorithms accepted: asymmetric only, so never `none` nor an HMAC keyed with a public key. */
export const ID_TOKEN_ALGORITHMS = ['RS256', 'ES256', 'PS256'];

/** The fields of a provider's discovery document that a sign-in uses: what a connection keeps. */
export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  token_endpoint_auth_methods_supported?: string[];
  code_challenge_methods_supported?: string[];
  /** RP-Initiated Logout 1.0: where a sign-out sends the browser on (docs/sessions.md). */
  end_session_endpoint?: string;
}

/** A connection as the OIDC client needs it. */
export interface OidcClientSettings {
  discovery: Discovery;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** The check of an OIDC step that failed, in words (an attempt's `detail`, a refusal's `reason`). */
export class OidcCheckFailed extends Error {}

/** What a successful code exchange proved: the ID token's claims, after every check. */
export interface VerifiedIdentity {
  subject: string;
  email: string | null;
  emailVerified: unknown;
  /** The `groups` claim's names (Okta, Entra ID, Keycloak send one when asked); none when absent. */
  groups: string[];
}

const URL_FIELDS = ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;

/** An http(s) URL: a browser's destination, never fetched here. */
const isWebAddress = (value: unknown): value is string =>
  typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/**
 * The OpenID Connect relying party (docs/sso.md), on openid-client: discovery, the authorisation
 * request (code flow, PKCE S256, state, nonce) and the callback's code exchange, where the ID
 * token's signature is checked against the provider's JWKS (RS256, ES256 or PS256 only), with `iss`,
 * `aud`/`azp`, `exp`/`iat` within SSO_CLOCK_SKEW_SECONDS and `nonce`. Every request goes through
 * SsoHttp, the SSRF rule.
 */
@Injectable()
export class OidcClient {
  constructor(
    private readonly http: SsoHttp,
    private readonly config: AppConfig,
  ) {}

  /** `{issuer}/.well-known/openid-configuration`, whose issuer must be exactly the given one. */
  async discover(issuer: string): Promise<Discovery> {
    const address = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    let document: unknown;
    try {
      document = await this.http.getJson(new URL(address));
    } catch (error) {
      throw new OidcCheckFailed(error instanceof SsoFetchError ? error.message : `${address}: ${messageOf(error)}`);
    }
    if (typeof document !== 'object' || document === null || Array.isArray(document))
      throw new OidcCheckFailed(`${address} is not a JSON object`);
    const fields = document as Record<string, unknown>;
    if (fields.issuer !== issuer)
      throw new OidcCheckFailed(
        `issuer mismatch: expected ${issuer}, the document says ${JSON.stringify(fields.issuer)}`,
      );
    for (const field of URL_FIELDS) {
      const value = fields[field];
      if (typeof value !== 'string' || !URL.canParse(value))
        throw new OidcCheckFailed(`the document has no ${field} URL`);
      try {
        this.http.check(new URL(value));
      } catch (error) {
        throw new OidcCheckFailed(`${field}: ${messageOf(error)}`);
      }
    }
    const strings = (value: unknown) =>
      Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
    return {
      issuer,
      authorization_endpoint: fields.authorization_endpoint as string,
      token_endpoint: fields.token_endpoint as string,
      jwks_uri: fields.jwks_uri as string,
      token_endpoint_auth_methods_supported: strings(fields.token_endpoint_auth_methods_supported),
      code_challenge_methods_supported: strings(fields.code_challenge_methods_supported),
      ...(isWebAddress(fields.end_session_endpoint) && { end_session_endpoint: fields.end_session_endpoint }),
    };
  }

  /** The fresh secrets of one sign-in: state, nonce and PKCE verifier. */
  newRequestSecrets(): { state: string; nonce: string; codeVerifier: string } {
    const { oidc } = loaded();
    return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  }

  /** Where the browser goes: the provider's authorisation endpoint with code flow, PKCE S256, state and nonce. */
  async authorizationUrl(
    settings: OidcClientSettings,
    request: { state: string; nonce: string; codeVerifier: string; scopes: string; loginHint?: string },
  ): Promise<URL> {
    const { oidc } = loaded();
    return oidc.buildAuthorizationUrl(this.configuration(settings), {
      redirect_uri: settings.redirectUri,
      response_type: 'code',
      scope: request.scopes,
      state: request.state,
      nonce: request.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
      ...(request.loginHint && { login_hint: request.loginHint }),
    });
  }

  /**
   * The callback's code exchanged with the PKCE verifier, and the ID token checked. `callbackUrl`:
   * the redirect URI with the query the provider sent. Throws OidcCheckFailed naming the check.
   */
  async exchange(
    settings: OidcClientSettings,
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string },
  ): Promise<VerifiedIdentity> {
    const { oidc } = loaded();
    const configuration = this.configuration(settings);
    oidc.enableNonRepudiationChecks(configuration);
    let tokens: Awaited<ReturnType<typeof OpenId.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new OidcCheckFailed(reasonOf(error));
    }
    const claims = tokens.claims();
    if (!claims) throw new OidcCheckFailed('the token endpoint answered no ID token');
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.iat !== 'number' || claims.iat > now + this.config.sso.clockSkewSeconds)
      throw new OidcCheckFailed(`iat ${String(claims.iat)} is in the future (now ${now})`);
    return {
      subject: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : null,
      emailVerified: claims.email_verified,
      groups: Array.isArray(claims.groups)
        ? claims.groups.filter((group): group is string => typeof group === 'string')
        : [],
    };
  }

  private configuration(settings: OidcClientSettings): OpenId.Configuration {
    const { oidc } = loaded();
    const { discovery } = settings;
    const methods = discovery.token_endpoint_auth_methods_supported;
    // client_secret_basic is the default of OpenID Connect Discovery when the document lists none.
    const auth =
      !methods || methods.includes('client_secret_basic')
        ? oidc.ClientSecretBasic(settings.clientSecret)
        : oidc.ClientSecretPost(settings.clientSecret);
    const configuration = new oidc.Configuration(
      { ...discovery },
      settings.clientId,
      {
        // openid-client compares the header's alg with this list (an array at run time).
        id_token_signed_response_alg: ID_TOKEN_ALGORITHMS as unknown as string,
        [oidc.clockTolerance]: this.config.sso.clockSkewSeconds,
      },
      auth,
    );
    configuration[oidc.customFetch] = this.http.fetch as unknown as OpenId.CustomFetch;
    // SsoHttp decides which addresses and schemes may be fetched (https only in production).
    oidc.allowInsecureRequests(configuration);
    return configuration;
  }
}

/** The innermost cause of openid-client's error, with what it compared. */
function reasonOf(error: unknown): string {
  const { oidc } = loaded();
  if (error instanceof oidc.ResponseBodyError)
    return `the token endpoint refused the code: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
  if (error instanceof oidc.AuthorizationResponseError)
    return `the provider answered ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const detail = current instanceof Error ? (current as Error & { cause?: unknown }).cause : undefined;
  const message = messageOf(current);
  if (detail && typeof detail === 'object') {
    const { claim, expected, claims, header, now } = detail as Record<string, unknown>;
    if (typeof claim === 'string' && claims && typeof claims === 'object') {
      const got = (claims as Record<string, unknown>)[claim];
      // The issuer and audience are not secrets; a nonce is the pending request's, never shown.
      if (claim === 'iss' || claim === 'aud' || claim === 'azp')
        return `${claim} mismatch: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`;
      if (typeof now === 'number') return `${claim} ${JSON.stringify(got)} is out of range (now ${now}): ${message}`;
      return `${claim} mismatch: ${message}`;
    }
    if (header && typeof header === 'object' && 'alg' in header)
      return `${message}: ${JSON.stringify((header as { alg: unknown }).alg)}, expected one of ${ID_TOKEN_ALGORITHMS.join(', ')}`;
  }
  return message;
}
