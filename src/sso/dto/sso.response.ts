import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

export class OidcSettings {
  @ApiProperty({ example: 'https://acme.okta.com' }) issuer: string;
  @ApiProperty() clientId: string;
  @ApiProperty({ type: [String], example: ['openid', 'email', 'profile'] }) scopes: string[];
  @ApiProperty({
    enum: ['client_secret_basic', 'client_secret_post'],
    description: 'How the client secret goes to the token endpoint',
  })
  tokenEndpointAuthMethod: string;
}

export class OidcServiceProvider {
  @ApiProperty({
    description: 'The redirect URI to register at the provider: {PUBLIC_BASE_URL}/sso/oidc/{id}/callback',
    example: 'https://tenants.example.com/sso/oidc/6f1c…/callback',
  })
  redirectUri: string;
}

export class SamlCertificate {
  @ApiProperty({ description: 'SHA-256 of the certificate, colon-separated hex' }) fingerprint: string;
  @ApiProperty({ format: 'date-time' }) notAfter: string;
}

export class SamlSettings {
  @ApiProperty({ description: 'The IdP’s entity ID: its assertions’ Issuer must equal it' }) idpEntityId: string;
  @ApiProperty({ description: 'Where AuthnRequests go (HTTP-Redirect)' }) idpSsoUrl: string;
  @ApiProperty({
    type: String,
    format: 'uri',
    nullable: true,
    description: 'Where the metadata is read from (refresh reads it again); null: pasted',
  })
  metadataUrl: string | null;
  @ApiProperty({ description: 'The assertion itself must be signed (default true)' }) wantAssertionsSigned: boolean;
  @ApiProperty({
    type: [SamlCertificate],
    description: 'Every valid signing certificate: a roll-over never breaks sign-in',
  })
  certificates: SamlCertificate[];
}

export class SamlServiceProvider {
  @ApiProperty({ description: 'This connection’s own SP entity ID: {PUBLIC_BASE_URL}/sso/saml/{id}/metadata' })
  entityId: string;
  @ApiProperty({ description: 'Its assertion consumer service (HTTP-POST): {PUBLIC_BASE_URL}/sso/saml/{id}/acs' })
  acsUrl: string;
  @ApiProperty({ description: 'Its SP metadata, for the IdP to read' }) metadataUrl: string;
}

export class LastLogin {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: '`ok` or the refusal’s code', example: 'ok' }) result: string;
}

/** A connection as the API shows it: never its client secret. */
@ApiExtraModels(OidcServiceProvider, SamlServiceProvider)
export class SsoConnection {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['oidc', 'saml'] }) type: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['draft', 'active', 'inactive'] }) status: string;
  @ApiProperty({ description: 'A person in no organisation joins at their first sign-in' }) jit: boolean;
  @ApiProperty({ enum: ['member', 'admin'] }) defaultRole: string;
  @ApiProperty() allowIdpInitiated: boolean;
  @ApiProperty({
    description: 'The active connection that discovery uses: the one an owner made primary last, else the first active',
  })
  primary: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({ type: OidcSettings, description: 'OIDC connections' }) oidc?: OidcSettings;
  @ApiPropertyOptional({ type: SamlSettings, description: 'SAML connections' }) saml?: SamlSettings;
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(OidcServiceProvider) }, { $ref: getSchemaPath(SamlServiceProvider) }],
    description: 'What to enter at the provider',
  })
  sp: OidcServiceProvider | SamlServiceProvider;
  @ApiProperty({ type: LastLogin, nullable: true }) lastLogin: LastLogin | null;
}

export class SsoConnectionChanged {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty({ type: SsoConnection }) connection: SsoConnection;
}

export class OneSsoConnection {
  @ApiProperty({ type: SsoConnection }) connection: SsoConnection;
}

export class SsoConnectionList {
  @ApiProperty({ type: [SsoConnection] }) connections: SsoConnection[];
}

export class SsoAttempt {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: '`ok` or the refusal’s code', example: 'SSO_TOKEN_INVALID' }) result: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional({ description: 'The provider’s subject' }) subject?: string;
  @ApiProperty({ description: 'The check that failed', example: 'aud mismatch: expected "portal", got "other"' })
  detail: string;
}

export class SsoAttemptList {
  @ApiProperty({ type: [SsoAttempt], description: 'The last 100, newest first' }) attempts: SsoAttempt[];
}

export class DiscoveredOrganisation {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class DiscoveredConnection {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['oidc', 'saml'] }) type: string;
}

export class SsoDiscovery {
  @ApiProperty({ description: 'false: sign in as usual' }) sso: boolean;
  @ApiPropertyOptional({ type: DiscoveredOrganisation }) organisation?: DiscoveredOrganisation;
  @ApiPropertyOptional({ type: DiscoveredConnection }) connection?: DiscoveredConnection;
  @ApiPropertyOptional({ description: 'Where to send the browser: GET /sso/start?connection=…' }) startUrl?: string;
}

export class SsoTestStart {
  @ApiProperty({
    description:
      'The provider’s sign-in address for a test: open it in a browser; the callback answers 200 with every check ' +
      'passed (and activates a draft connection) or the refusal that names the failed check, and neither joins ' +
      'nor signs in',
  })
  startUrl: string;
}

export class SsoServiceAddress {
  @ApiProperty({
    example: 'https://tenants.example.com',
    description: 'The address that redirect URIs and ACS URLs are made from: compare it with the provider’s settings',
  })
  baseUrl: string;
  @ApiProperty({
    enum: ['PUBLIC_BASE_URL', 'request'],
    description: 'PUBLIC_BASE_URL, or derived from this request’s Host (and X-Forwarded-Proto behind TRUST_PROXY)',
  })
  from: string;
}

export class SsoEnforcement {
  @ApiProperty({
    description: 'Members must sign in by single sign-on; a session made otherwise is refused 403 SSO_REQUIRED',
  })
  enforced: boolean;
  @ApiProperty({ description: 'The organisation’s connections' }) connections: number;
  @ApiProperty({ description: 'Its active connections' }) activeConnections: number;
  @ApiProperty({
    type: [String],
    enum: ['owner'],
    description: 'The roles that keep access without single sign-on while it is enforced (the break-glass)',
  })
  breakGlass: string[];
  @ApiProperty({ type: SsoServiceAddress }) serviceAddress: SsoServiceAddress;
}

export class SsoEnforcementChanged extends SsoEnforcement {
  @ApiProperty({ enum: [true] }) success: boolean;
}
