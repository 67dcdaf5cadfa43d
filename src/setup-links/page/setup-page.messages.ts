/** The words of the setup pages: their headings and buttons, and every refusal of /api/setup/* said for a person. */

export const PAGE_TEXT = {
  title: (organisation: string) => `Set up sign-in for ${organisation}`,
  intro: (organisation: string) =>
    `An owner of ${organisation} sent you this link to connect its identity provider. What you save here is kept: ` +
    'you can leave and come back with the same link.',
  expires: 'This link works until',
  noScript: 'This page needs JavaScript to save what you enter. Turn it on, then reload the page.',
  copy: 'Copy',
  copied: (what: string) => `${what} copied.`,
  copyFailed: (what: string) => `${what} could not be copied: select it and copy it by hand.`,
  stateDone: 'Done',
  stateInProgress: 'In progress',
  stateToDo: 'To do',
  finishTitle: 'Finish',
  finishIntro: (organisation: string) =>
    `When you have done the steps above, finish: this link then closes, and the owners of ${organisation} are told.`,
  finishButton: 'Finish setup',
  finishing: 'Finishing…',
} as const;

export const DOMAIN_TEXT = {
  heading: 'Prove your domain',
  intro:
    'Your people sign in with addresses at your company’s domain. Prove that it is yours by publishing a DNS TXT ' +
    'record; the sign-in connection then trusts addresses at it.',
  addLabel: 'Your company’s e-mail domain',
  addHint: 'For example acme.com: the part of your people’s addresses after the @.',
  addButton: 'Add domain',
  recordIntro: 'At your DNS provider, publish this TXT record, then check it:',
  recordName: 'Name (host)',
  recordValue: 'Value',
  hostHint: (label: string, domain: string) =>
    `Many DNS consoles add the domain themselves: there, type only ${label} as the host, not ${label}.${domain}.`,
  checkButton: 'Check now',
  removeButton: 'Remove',
  removed: (domain: string) => `${domain} is removed.`,
  provenOn: 'Proven on',
  added: (domain: string) => `${domain} is added. Publish its TXT record, then press Check now.`,
  checking: (domain: string) => `Checking the DNS record of ${domain}…`,
  none: 'No domain yet.',
} as const;

/** The DNS answer of a check, said for a person (docs/domains.md, "Proof by DNS"). */
export const CHECK_RESULT_TEXT: Record<string, (recordName: string) => string> = {
  found: () => 'The record is there: the domain is proven.',
  record_not_found: (recordName) =>
    `No TXT record with a tenant-verification value was found at ${recordName}. A record just published can take ` +
    'a few minutes to be seen; check its name and try again.',
  token_mismatch: (recordName) =>
    `The TXT record at ${recordName} has another value than this one. Publish the value shown here exactly ` +
    '(without the quotes some consoles add), then try again.',
};

/** A domain's status, said for a person. */
export const DOMAIN_STATUS_TEXT: Record<string, string> = {
  pending: 'Not proven yet',
  verified: 'Proven',
  failing: 'Proven, but the record is missing: publish it again',
  expired: 'The time to prove it has run out: ask the owner for a new claim',
  lapsed: 'No longer proven',
};

export const SSO_TEXT = {
  heading: 'Connect your identity provider',
  intro:
    'Choose your identity provider, create an application there, give its details here, enter this connection’s ' +
    'values at the provider, then test a sign-in. The connection is turned on by a successful test sign-in.',
  providerLegend: 'Your identity provider',
  protocolLegend: 'Protocol',
  saml: 'SAML 2.0',
  oidc: 'OpenID Connect',
  metadataUrlLabel: 'The provider’s metadata URL',
  metadataFileLabel: 'or its metadata file',
  metadataXmlLabel: 'or the metadata XML, pasted',
  metadataHint: 'Give one of the three.',
  issuerLabel: 'Issuer URL',
  clientIdLabel: 'Client ID',
  clientSecretLabel: 'Client secret',
  saveButton: 'Save connection',
  addAnother: 'Add another connection',
  valuesIntro: 'Enter these values at your provider:',
  entityId: 'Entity ID (Audience URI, Identifier)',
  acsUrl: 'ACS URL (Single sign-on URL, Reply URL)',
  spMetadataUrl: 'Metadata URL of this connection',
  redirectUri: 'Redirect URI (sign-in redirect URI)',
  providerValues: 'What this connection knows of your provider',
  idpEntityId: 'Provider entity ID',
  idpSsoUrl: 'Provider sign-in URL',
  certificates: 'Signing certificates valid until',
  issuer: 'Issuer',
  clientId: 'Client ID',
  status: 'Status',
  updateMetadata: 'Give the provider’s metadata again',
  updateSecret: 'Give the client secret again',
  updateButton: 'Save',
  testButton: 'Test sign-in',
  removeButton: 'Remove this connection',
  removed: (name: string) => `${name} is removed.`,
  testIntro:
    'Test sign-in opens your provider in a new tab: sign in there as one of your people, with an address at a ' +
    'proven domain. The result shows here.',
  testOpened: 'The sign-in page opened in a new tab. Sign in there; the result shows here.',
  testOpenLink: 'Open the sign-in page',
  testPassed: 'Test sign-in passed:',
  testFailed: 'Test sign-in failed:',
  failedCheck: 'The check that failed:',
  testTimedOut: 'No test sign-in came back in 10 minutes. Press Test sign-in to try again.',
  lastTest: 'Last test sign-in',
  saved: (name: string) => `${name} is saved. Enter the values shown at your provider, then press Test sign-in.`,
  updated: (name: string) => `${name} is saved.`,
  noMetadata: 'Give the metadata URL, a metadata file or the pasted XML.',
  fileUnreadable: 'The metadata file could not be read.',
} as const;

/** A connection's status, said for a person. */
export const CONNECTION_STATUS_TEXT: Record<string, string> = {
  draft: 'Not on yet: a successful test sign-in turns it on',
  active: 'On: your people can sign in with it',
  inactive: 'Off',
};

export const SCIM_TEXT = {
  heading: 'Provision your people (SCIM)',
  intro:
    'Your identity provider can add, change and remove your people here by SCIM 2.0. Give it the base URL and a ' +
    'token, and map its groups to roles.',
  baseUrl: 'SCIM base URL (Tenant URL)',
  tokensNone: 'No token yet.',
  tokensMade: (count: number) => `${count === 1 ? 'One token has' : `${count} tokens have`} been made.`,
  tokenMadeAt: 'made',
  tokenUsedAt: 'last used',
  tokenNeverUsed: 'not used yet',
  makeToken: 'Make a token',
  makeAnother: 'Make another token',
  secretLabel: 'Your token (shown once: copy it now)',
  secretShown: 'The token is made. Copy it now: it is shown only once.',
  guides: 'Steps at your provider',
  mappingHeading: 'Groups and roles',
  mappingIntro:
    'People in a group that you map here get its role (the highest of their groups); everyone else is a member.',
  groupLabel: (n: number) => `Group ${n}`,
  roleLabel: (n: number) => `Role of group ${n}`,
  customRoles: 'also gives the custom roles',
  removeGroup: (n: number) => `Remove group ${n}`,
  addGroup: 'Add a group',
  saveMapping: 'Save groups and roles',
  mappingSaved: 'Groups and roles are saved.',
  mappingNone: 'No group is mapped yet.',
} as const;

/** The words of a refusal's code, for the codes /api/setup/* answers (docs/domains.md, sso.md, scim.md, setup-links.md). */
export const REFUSAL_TEXT: Record<string, string> = {
  DOMAIN_INVALID: 'That is not a domain name. Give the part of an address after the @, such as acme.com.',
  DOMAIN_PUBLIC_SUFFIX: 'That name is a public suffix, which no one company owns. Give your own domain.',
  DOMAIN_FREE_PROVIDER: 'That is a free e-mail provider’s domain. Give your company’s own domain.',
  DOMAIN_ALREADY_ADDED: 'That domain is already added: it is in the list above.',
  DOMAIN_TAKEN: 'Another organisation has already proven that domain. Ask the service’s operators for help.',
  DOMAIN_LIMIT: 'The organisation has as many domains as it may have.',
  DOMAIN_NOT_FOUND: 'That domain is no longer claimed. Reload the page.',
  VERIFICATION_EXPIRED: 'The time to prove this domain has run out. Ask the owner to claim it again.',
  DOMAIN_LAPSED: 'This domain is no longer proven. Ask the owner to give it a new token.',
  DOMAIN_ALREADY_VERIFIED: 'This domain is already proven.',
  DNS_UNAVAILABLE: 'The DNS could not be asked just now. Nothing changed; try again in a minute.',
  SSO_CONNECTION_INVALID: 'The connection’s details are not valid.',
  SSO_CONNECTION_LIMIT: 'The organisation has as many connections as it may have.',
  SSO_DISCOVERY_FAILED: 'The provider’s OpenID configuration could not be read from that issuer.',
  SSO_METADATA_INVALID: 'The provider’s metadata cannot be used.',
  SSO_NOT_FOUND: 'That connection is not there any more. Reload the page.',
  SSO_NOT_CONFIGURED: 'Single sign-on is not configured on this service. Tell the organisation’s owner.',
  SSO_STATE_INVALID: 'The sign-in did not match a test that this page started.',
  SSO_IDP_ERROR: 'The provider refused the sign-in.',
  SSO_TOKEN_INVALID: 'The provider’s answer did not pass a check.',
  SSO_ASSERTION_INVALID: 'The provider’s SAML response did not pass a check.',
  SSO_REPLAYED: 'The provider’s SAML response was used already.',
  SSO_DOMAIN_MISMATCH: 'The address signed in with is not at a proven domain of the organisation.',
  SSO_NOT_PROVISIONED: 'That person is not a member, and the connection does not let new people join.',
  MEMBER_OF_ANOTHER_ORGANISATION: 'That person belongs to another organisation.',
  EMAIL_IN_USE: 'Another account has that address.',
  REMOVED_BY_ORGANISATION: 'The organisation removed that person.',
  SETUP_INTENT_NOT_GRANTED: 'This link does not cover that step.',
  SETUP_ACTION_NOT_ALLOWED: 'A setup link does not allow that.',
  SETUP_LINK_CLOSED: 'This link is no longer open.',
  UNKNOWN_ROLE: 'A group is mapped to a role the organisation does not have.',
};

/** The page of `GET /setup` without a setup session. */
export const NO_SESSION_TEXT = {
  title: 'Open your setup link again',
  body:
    'This page opens from the setup link you were sent. If the setup is finished, its link is closed and there is ' +
    'nothing more to do here; to change anything, ask the person who sent it for a new one.',
} as const;

/** What the page says once Finish has closed the link. */
export const FINISHED_TEXT = {
  title: 'Setup finished',
  body: 'Thank you. The link is now closed, and the organisation’s owners are told. You can close this page.',
} as const;

/** What the script says when an answer carries no code it knows, or none comes. */
export const FALLBACK_TEXT = {
  unauthorised: 'Your setup session has ended. Open the link you were sent again.',
  forbidden: 'This link does not allow that.',
  failed: 'Something went wrong, try again.',
  unreachable: 'The service could not be reached. Check your connection and try again.',
} as const;
