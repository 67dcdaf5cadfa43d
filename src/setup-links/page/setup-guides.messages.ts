/**
 * The steps at each identity provider, as the setup page shows them (docs/sso.md, "At the provider";
 * docs/scim.md, "Setting up Okta" and "Microsoft Entra ID"): what to do there before the connection
 * exists here (`before`), and where its values go once it does (`after`).
 */

export type SsoProvider = 'okta' | 'entra' | 'google' | 'saml' | 'oidc';
export type SsoProtocol = 'saml' | 'oidc';

/** The providers offered, in order; the generic ones have one protocol. */
export const SSO_PROVIDERS: { key: SsoProvider; label: string; protocols: SsoProtocol[] }[] = [
  { key: 'okta', label: 'Okta', protocols: ['saml', 'oidc'] },
  { key: 'entra', label: 'Microsoft Entra ID', protocols: ['saml', 'oidc'] },
  { key: 'google', label: 'Google Workspace', protocols: ['saml', 'oidc'] },
  { key: 'saml', label: 'Another SAML provider', protocols: ['saml'] },
  { key: 'oidc', label: 'Another OpenID Connect provider', protocols: ['oidc'] },
];

interface Guide {
  before: string[];
  after: string[];
}

export const SSO_GUIDES: Record<string, Guide> = {
  'okta-saml': {
    before: [
      'In the Okta admin console: Applications → Create App Integration → SAML 2.0.',
      'Single sign-on URL and Audience URI: enter https://example.com for now; this connection’s own values come once it is saved here.',
      'Name ID format EmailAddress, Application username Email; attribute statement email = user.email, and a group attribute statement groups.',
      'Finish, then “View SAML setup instructions”: give its metadata URL below.',
    ],
    after: [
      'In Okta: General → SAML Settings → Edit. Single sign-on URL = the ACS URL (“use this for Recipient and Destination”), Audience URI = the entity ID.',
      'Assign the application to the people who sign in with it.',
    ],
  },
  'okta-oidc': {
    before: [
      'In the Okta admin console: Applications → Create App Integration → OIDC - OpenID Connect, Web Application.',
      'Keep the sign-in redirect URI Okta suggests for now; this connection’s own comes once it is saved here.',
      'Give below the issuer (https://your-domain.okta.com, or an authorisation server’s), the client ID and the client secret.',
    ],
    after: [
      'In Okta: General → Login → Sign-in redirect URIs = the redirect URI.',
      'For roles from groups: add a groups claim, and assign the application to your people.',
    ],
  },
  'entra-saml': {
    before: [
      'In the Entra admin centre: Enterprise applications → New application → Create your own application (non-gallery) → Single sign-on → SAML.',
      'Under SAML Certificates, copy the App Federation Metadata Url and give it below.',
    ],
    after: [
      'In Entra: Basic SAML Configuration → Edit. Identifier (Entity ID) = the entity ID, Reply URL = the ACS URL.',
      'Attributes & Claims: keep emailaddress; add a groups claim for roles from groups. Assign users and groups.',
    ],
  },
  'entra-oidc': {
    before: [
      'In the Entra admin centre: App registrations → New registration, platform Web (no redirect URI yet).',
      'Certificates & secrets → New client secret.',
      'Give below the issuer https://login.microsoftonline.com/your-tenant-id/v2.0, the Application (client) ID and the secret’s value.',
    ],
    after: [
      'In Entra: Authentication → Add a platform → Web → Redirect URI = the redirect URI.',
      'For roles from groups: Token configuration → Add groups claim.',
    ],
  },
  'google-saml': {
    before: [
      'In the Google Admin console: Apps → Web and mobile apps → Add app → Add custom SAML app, and name it.',
      'On “Google Identity Provider details”, download the metadata and give the file below.',
    ],
    after: [
      'On “Service provider details”: ACS URL = the ACS URL, Entity ID = the entity ID, Name ID format EMAIL, Name ID = Basic Information → Primary email.',
      'Group membership → groups, for roles from groups; then turn the app on for your people (User access).',
    ],
  },
  'google-oidc': {
    before: [
      'In the Google Cloud console: APIs & Services → Credentials → Create credentials → OAuth client ID, Web application.',
      'Give below the issuer https://accounts.google.com, the client ID and the client secret.',
    ],
    after: ['In the OAuth client: Authorised redirect URIs = the redirect URI.'],
  },
  saml: {
    before: [
      'At your provider, create a SAML 2.0 application that sends the e-mail address as the NameID (or in an email attribute), and groups in a groups attribute if you map groups to roles.',
      'Give its metadata below: its URL, its file, or the XML.',
    ],
    after: [
      'At your provider: the entity ID (audience) and the ACS URL (HTTP-POST) above, or let it read the metadata URL.',
    ],
  },
  oidc: {
    before: [
      'At your provider, register a confidential web application (authorisation code flow).',
      'Give below its issuer, client ID and client secret; the issuer must serve /.well-known/openid-configuration.',
    ],
    after: ['At your provider: the redirect URI above.'],
  },
};

export const SCIM_GUIDES: { key: string; label: string; steps: string[] }[] = [
  {
    key: 'okta',
    label: 'Okta',
    steps: [
      'Applications → your application → General → Provisioning: SCIM; then Provisioning → Integration.',
      'SCIM connector base URL = the base URL above; Unique identifier field for users = userName.',
      'Supported provisioning actions: Push New Users, Push Profile Updates, Push Groups.',
      'Authentication Mode = HTTP Header; Authorization = the token.',
      'Then To App: enable Create Users, Update User Attributes and Deactivate Users; push the groups you map below.',
    ],
  },
  {
    key: 'entra',
    label: 'Microsoft Entra ID',
    steps: [
      'Enterprise applications → your application → Provisioning → Automatic.',
      'Tenant URL = the base URL above; Secret Token = the token; Test Connection.',
      'Mappings: keep userPrincipalName → userName (or mail → userName when user principal names are not addresses).',
      'Provision the groups you map below, then turn provisioning on.',
    ],
  },
];
