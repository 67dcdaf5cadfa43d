import { Injectable } from '@nestjs/common';
import type * as OpenId from 'openid-client';
import { messageOf } from '../../common/api-error';
import { AppConfig } from '../../config/app-config';
import { TokenEndpointAuthMethod } from '../../database/entities/sso.entity';
import { SsoFetchError, SsoHttp } from '../sso-http';
import { exchangeRefusal } from './oidc-refusals';
import { OIDC_REASONS } from './oidc.messages';

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
  /** RFC 9207: the provider's redirect names its issuer, so a redirect without `iss` is refused. */
  authorization_response_iss_parameter_supported?: true;
}

/** A connection as the OIDC client needs it. */
export interface OidcClientSettings {
  discovery: Discovery;
  clientId: string;
  clientSecret: string;
  authMethod: TokenEndpointAuthMethod;
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

/** The endpoints a sign-in needs: the document must name each. */
const REQUIRED_ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;

/**
 * The fields of a discovery document that hold an address (OpenID Connect Discovery 1.0, RFC 8414,
 * RP-Initiated Logout, Session Management): every `*_endpoint`, `jwks_uri`, `check_session_iframe`, and
 * the addresses of `mtls_endpoint_aliases` (RFC 8705).
 */
function endpointsOf(fields: Record<string, unknown>): [string, unknown][] {
  const named = Object.entries(fields).filter(
    ([field]) => field.endsWith('_endpoint') || field === 'jwks_uri' || field === 'check_session_iframe',
  );
  const aliases = fields.mtls_endpoint_aliases;
  const aliased =
    typeof aliases === 'object' && aliases !== null && !Array.isArray(aliases)
      ? Object.entries(aliases).map(([field, value]): [string, unknown] => [`mtls_endpoint_aliases.${field}`, value])
      : [];
  return [...named, ...aliased];
}

/**
 * How the client authenticates at the token endpoint when an owner does not say: client_secret_basic
 * when the document offers it or lists nothing (OpenID Connect Discovery's default), else client_secret_post.
 */
export function defaultAuthMethod(discovery: Pick<Discovery, 'token_endpoint_auth_methods_supported'>) {
  const offered = discovery.token_endpoint_auth_methods_supported;
  return !offered || offered.includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post';
}

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
    for (const field of REQUIRED_ENDPOINTS)
      if (typeof fields[field] !== 'string' || !URL.canParse(fields[field] as string))
        throw new OidcCheckFailed(`the document has no ${field} URL`);
    // Every address the document gives, fetched by this service or not, under the issuer's SSRF rule.
    for (const [field, value] of endpointsOf(fields)) {
      if (typeof value !== 'string' || !URL.canParse(value))
        throw new OidcCheckFailed(`${field} is not a URL: ${JSON.stringify(value).slice(0, 200)}`);
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
      ...(typeof fields.end_session_endpoint === 'string' && { end_session_endpoint: fields.end_session_endpoint }),
      ...(fields.authorization_response_iss_parameter_supported === true && {
        authorization_response_iss_parameter_supported: true,
      }),
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
      throw new OidcCheckFailed(
        exchangeRefusal(
          error,
          {
            authMethod: settings.authMethod,
            jwksUri: settings.discovery.jwks_uri,
            algorithms: ID_TOKEN_ALGORITHMS,
            skewSeconds: this.config.sso.clockSkewSeconds,
          },
          oidc,
        ),
      );
    }
    const claims = tokens.claims();
    if (!claims) throw new OidcCheckFailed(OIDC_REASONS.noIdToken);
    const now = Math.floor(Date.now() / 1000);
    const skew = this.config.sso.clockSkewSeconds;
    if (typeof claims.iat !== 'number') throw new OidcCheckFailed(OIDC_REASONS.missingClaim('iat'));
    if (claims.iat > now + skew) throw new OidcCheckFailed(OIDC_REASONS.issuedInFuture(claims.iat, now, skew));
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
    const auth =
      settings.authMethod === 'client_secret_post'
        ? oidc.ClientSecretPost(settings.clientSecret)
        : oidc.ClientSecretBasic(settings.clientSecret);
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
