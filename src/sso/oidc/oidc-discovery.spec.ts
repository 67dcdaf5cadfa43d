import { parseConfig } from '../../config/app-config';
import { SsoHttp } from '../sso-http';
import { OidcCheckFailed, OidcClient } from './oidc-client';

/** The issuer's document, as SsoHttp would read it: no socket, the SSRF rule's check itself. */
class DocumentAt extends SsoHttp {
  document: Record<string, unknown> = {};
  override getJson = async (): Promise<unknown> => this.document;
}

describe(`${OidcClient.name}: every address of a discovery document under the issuer's SSRF rule`, () => {
  const issuer = 'https://idp.acme.example';
  const config = parseConfig({
    NODE_ENV: 'production',
    AUTH_JWT_SECRET: 'k'.repeat(32),
    SSO_SECRETS_KEY: 'a'.repeat(64),
  });
  const http = new DocumentAt(config);
  const client = new OidcClient(http, config);
  const document = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/keys`,
    userinfo_endpoint: `${issuer}/userinfo`,
    end_session_endpoint: `${issuer}/logout`,
    token_endpoint_auth_methods_supported: ['client_secret_post'],
  };
  const refusal = (changes: Record<string, unknown>) => {
    http.document = { ...document, ...changes };
    return client.discover(issuer).then(
      () => undefined,
      (error: unknown) => (error instanceof OidcCheckFailed ? error.message : error),
    );
  };

  it('a document whose every address is public https: what a sign-in uses, kept', async () => {
    http.document = document;
    await expect(client.discover(issuer)).resolves.toMatchObject({
      token_endpoint: `${issuer}/token`,
      end_session_endpoint: `${issuer}/logout`,
      token_endpoint_auth_methods_supported: ['client_secret_post'],
    });
  });

  it.each([
    ['token_endpoint', 'https://169.254.169.254/token', /^token_endpoint: .*169\.254\.169\.254.*SSO_ALLOW_PRIVATE/],
    ['jwks_uri', 'https://127.0.0.1/keys', /^jwks_uri: .*127\.0\.0\.1/],
    ['userinfo_endpoint', 'https://10.0.0.8/userinfo', /^userinfo_endpoint: .*10\.0\.0\.8/],
    ['end_session_endpoint', 'http://idp.acme.example/logout', /^end_session_endpoint: .* is not https/],
    ['authorization_endpoint', 'https://[::1]/authorize', /^authorization_endpoint: /],
    ['introspection_endpoint', 'https://localhost/introspect', /^introspection_endpoint: .*localhost/],
    ['check_session_iframe', 'https://192.168.1.1/check', /^check_session_iframe: .*192\.168\.1\.1/],
  ])('%s at %s: refused, naming the field', async (field, address, reason) => {
    expect(await refusal({ [field]: address })).toMatch(reason);
  });

  it('mtls_endpoint_aliases (RFC 8705) too', async () => {
    expect(await refusal({ mtls_endpoint_aliases: { token_endpoint: 'https://169.254.169.254/token' } })).toMatch(
      /^mtls_endpoint_aliases\.token_endpoint: /,
    );
  });
});
