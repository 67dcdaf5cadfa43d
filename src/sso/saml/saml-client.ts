import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CacheProvider, SAML, SamlConfig, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import { Clock } from '../../common/clock';
import { SamlMetadataSource } from '../sso-connection-body';
import { SsoFetchError, SsoHttp } from '../sso-http';
import { IdpMetadata, readIdpMetadata } from './saml-metadata';
import { children, elements, NAMEID_EMAIL, parseSaml, SAML_NS, SamlRefused } from './saml-xml';

/** A connection's SAML settings: the provider's side from its metadata, this service's side per connection. */
export interface SamlSettings {
  idp: IdpMetadata;
  /** This connection's own entity ID and ACS: an assertion meant for another connection never matches. */
  spEntityId: string;
  acsUrl: string;
  wantAssertionsSigned: boolean;
  allowIdpInitiated: boolean;
  clockSkewMs: number;
  requestTtlMs: number;
}

/** What a valid response says of the person, read from the signed assertion only. */
export interface SamlAssertion {
  id: string;
  /** When it stops being acceptable (its NotOnOrAfter): it is remembered until then plus the skew. */
  notOnOrAfter: Date;
  /** The request it answers; null for an unsolicited (IdP-initiated) response. */
  inResponseTo: string | null;
  subject: string;
  email: string | null;
  groups: string[];
}

/** A failed check of a SAML response, with the check in words. */
export class SamlCheckFailed extends Error {
  constructor(
    message: string,
    /** The provider answered an error status (the person cancelled, or may not use the application). */
    readonly idpError = false,
  ) {
    super(message);
  }
}

/** Answers whether this service sent a request of that ID for the connection (used or not: that is checked after). */
export type RequestLookup = (requestId: string) => Promise<Date | null>;

/** RSA with SHA-256 or stronger, or ECDSA; never SHA-1. */
const SIGNATURE_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
]);
const DIGEST_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const GROUP_ATTRIBUTES = ['groups', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'];
const MAX_RESPONSE_CHARS = 512 * 1024;

/**
 * SAML 2.0 for single sign-on (docs/sso.md, "SAML"), through @node-saml/node-saml: the AuthnRequest
 * over HTTP-Redirect (or HTTP-POST), the SP metadata, and a response's checks. node-saml verifies the signature with
 * the connection's certificates only (never a key carried in the message), one assertion, the
 * conditions' times and the audience (exactly); the checks it leaves out are made here, on the bytes
 * that the signature covers: no DTD or processing instruction, no SHA-1, the Destination and the
 * Recipient (this connection's ACS), the assertion's Issuer (the provider's entity ID).
 */
@Injectable()
export class SamlClient {
  constructor(
    private readonly http: SsoHttp,
    private readonly clock: Clock,
  ) {}

  /** The provider's metadata, pasted or read from its address (under the SSRF rule); SamlRefused with a reason. */
  async metadata(source: SamlMetadataSource): Promise<IdpMetadata> {
    let xml: string;
    if ('xml' in source) xml = source.xml;
    else
      try {
        xml = (await this.http.get(new URL(source.url), 'application/samlmetadata+xml, application/xml, text/xml'))
          .text;
      } catch (error) {
        if (error instanceof SsoFetchError) throw new SamlRefused(error.message);
        throw error;
      }
    return readIdpMetadata(xml, this.clock.now());
  }

  /** A new AuthnRequest's ID: an NCName (a letter first), 160 random bits. */
  newRequestId(): string {
    return `_${randomBytes(20).toString('hex')}`;
  }

  /** The provider's address for a new sign-in whose AuthnRequest has the ID `requestId`. */
  async authorizeUrl(settings: SamlSettings, requestId: string, relayState: string): Promise<URL> {
    const saml = this.saml(settings, async () => null, requestId);
    return new URL(await saml.getAuthorizeUrlAsync(relayState, undefined, {}));
  }

  /**
   * The form that carries a new sign-in's AuthnRequest to a provider that takes it over HTTP-POST
   * only: its action (the provider's SSO URL) and its fields (SAMLRequest, RelayState).
   */
  async authorizeForm(
    settings: SamlSettings,
    requestId: string,
    relayState: string,
  ): Promise<{ action: string; fields: Record<string, string> }> {
    const saml = this.saml(settings, async () => null, requestId);
    const message = await saml.getAuthorizeMessageAsync(relayState, undefined, {});
    const fields = Object.fromEntries(Object.entries(message).map(([name, value]) => [name, String(value)]));
    return { action: settings.idp.ssoUrl, fields };
  }

  /** This connection's SP metadata: its entity ID, its ACS (HTTP-POST), NameID e-mail, assertions signed. */
  serviceProviderMetadata(settings: SamlSettings): string {
    return this.saml(settings, async () => null).generateServiceProviderMetadata(null);
  }

  /** The InResponseTo of a response, unverified: only to tell whose sign-in it claims to answer. */
  claimedRequest(samlResponse: string): string | null {
    try {
      const root = parseSaml(decoded(samlResponse), 'the response').documentElement;
      return root?.getAttribute('InResponseTo') || null;
    } catch {
      return null;
    }
  }

  /** Every check of a response, in order; the assertion that passed them. */
  async validate(settings: SamlSettings, samlResponse: string, knownRequest: RequestLookup): Promise<SamlAssertion> {
    const xml = decoded(samlResponse);
    let document: Document;
    try {
      document = parseSaml(xml, 'the response');
    } catch (error) {
      if (error instanceof SamlRefused) throw new SamlCheckFailed(error.message);
      throw error;
    }
    const root = document.documentElement;
    if (root.localName !== 'Response' || root.namespaceURI !== SAML_NS.protocol)
      throw new SamlCheckFailed('the message is not a SAML Response');
    for (const method of elements(document, SAML_NS.dsig, 'SignatureMethod')) {
      const algorithm = method.getAttribute('Algorithm') ?? '';
      if (!SIGNATURE_ALGORITHMS.has(algorithm))
        throw new SamlCheckFailed(`signature algorithm refused (RSA-SHA256 or stronger only): ${algorithm}`);
    }
    for (const method of elements(document, SAML_NS.dsig, 'DigestMethod')) {
      const algorithm = method.getAttribute('Algorithm') ?? '';
      if (!DIGEST_ALGORITHMS.has(algorithm))
        throw new SamlCheckFailed(`digest algorithm refused (SHA-256 or stronger only): ${algorithm}`);
    }
    if (elements(document, SAML_NS.assertion, 'EncryptedAssertion').length)
      throw new SamlCheckFailed(
        'encrypted assertions are not supported: turn assertion encryption off at the provider',
      );
    const destination = root.getAttribute('Destination');
    if (destination !== settings.acsUrl)
      throw new SamlCheckFailed(
        destination ? `Destination mismatch: expected ${settings.acsUrl}, got ${destination}` : 'Destination missing',
      );
    const inResponseTo = root.getAttribute('InResponseTo') || null;
    if (inResponseTo === null && !settings.allowIdpInitiated)
      throw new SamlCheckFailed(
        'an unsolicited response (no InResponseTo), and this connection refuses IdP-initiated sign-ins',
      );
    let profile;
    try {
      ({ profile } = await this.saml(settings, knownRequest).validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      if (error instanceof SamlStatusError) throw new SamlCheckFailed(error.message, true);
      const message = error instanceof Error ? error.message : String(error);
      throw new SamlCheckFailed(
        message === 'InResponseTo is not valid' ? `InResponseTo ${inResponseTo} is unknown` : message,
      );
    }
    if (!profile) throw new SamlCheckFailed('the response holds no assertion');
    return this.signedAssertion(
      settings,
      profile.getAssertionXml!(),
      inResponseTo,
      (profile.attributes ?? {}) as Record<string, unknown>,
    );
  }

  /** What the signed assertion says; its Issuer and Recipient checked. */
  private signedAssertion(
    settings: SamlSettings,
    assertionXml: string,
    inResponseTo: string | null,
    attributes: Record<string, unknown>,
  ): SamlAssertion {
    const assertion = parseSaml(assertionXml, 'the assertion').documentElement;
    const id = assertion.getAttribute('ID');
    if (!id) throw new SamlCheckFailed('the assertion has no ID');
    const issuer = children(assertion, SAML_NS.assertion, 'Issuer')[0]?.textContent?.trim() ?? '';
    if (issuer !== settings.idp.entityId)
      throw new SamlCheckFailed(`Issuer mismatch: expected ${settings.idp.entityId}, got ${issuer || 'none'}`);
    const [subject] = children(assertion, SAML_NS.assertion, 'Subject');
    const confirmations = subject ? elements(subject, SAML_NS.assertion, 'SubjectConfirmationData') : [];
    const recipients = confirmations.map((data) => data.getAttribute('Recipient'));
    if (!recipients.includes(settings.acsUrl))
      throw new SamlCheckFailed(
        `Recipient mismatch: expected ${settings.acsUrl}, got ${recipients.filter(Boolean).join(', ') || 'none'}`,
      );
    const [nameId] = subject ? children(subject, SAML_NS.assertion, 'NameID') : [];
    const nameIdValue = nameId?.textContent?.trim() ?? '';
    if (!nameIdValue) throw new SamlCheckFailed('the assertion has no NameID');
    const [conditions] = children(assertion, SAML_NS.assertion, 'Conditions');
    const ends = [conditions, ...confirmations]
      .map((node) => node?.getAttribute('NotOnOrAfter'))
      .filter((value): value is string => !!value)
      .map((value) => new Date(value).getTime())
      .filter((time) => !Number.isNaN(time));
    if (!ends.length) throw new SamlCheckFailed('the assertion has no NotOnOrAfter');
    const email =
      EMAIL_ATTRIBUTES.map((name) => firstText(attributes[name])).find((value) => value !== null) ??
      (nameId.getAttribute('Format') === NAMEID_EMAIL || nameIdValue.includes('@') ? nameIdValue : null);
    const groups = GROUP_ATTRIBUTES.flatMap((name) => texts(attributes[name]));
    return {
      id,
      notOnOrAfter: new Date(Math.min(...ends)),
      inResponseTo,
      subject: nameIdValue,
      email,
      groups,
    };
  }

  private saml(settings: SamlSettings, knownRequest: RequestLookup, requestId?: string): SAML {
    // The requests live in sso_requests (every instance reads them); node-saml only asks whether one is known.
    const cacheProvider: CacheProvider = {
      saveAsync: async () => null,
      getAsync: async (key) => (await knownRequest(key))?.toISOString() ?? null,
      removeAsync: async () => null,
    };
    const config: SamlConfig = {
      idpCert: settings.idp.certificates.map((certificate) => certificate.pem),
      issuer: settings.spEntityId,
      audience: settings.spEntityId,
      callbackUrl: settings.acsUrl,
      entryPoint: settings.idp.ssoUrl,
      identifierFormat: NAMEID_EMAIL,
      wantAssertionsSigned: settings.wantAssertionsSigned,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: settings.clockSkewMs,
      validateInResponseTo: settings.allowIdpInitiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: settings.requestTtlMs,
      cacheProvider,
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
      authnRequestBinding: settings.idp.ssoBinding === 'post' ? 'HTTP-POST' : 'HTTP-Redirect',
      // HTTP-POST carries the request base64-encoded only: deflate belongs to HTTP-Redirect (SAML bindings 3.5.4).
      skipRequestCompression: settings.idp.ssoBinding === 'post',
      ...(requestId && { generateUniqueId: () => requestId }),
    };
    return new SAML(config);
  }
}

function decoded(samlResponse: string): string {
  if (samlResponse.length > MAX_RESPONSE_CHARS) throw new SamlCheckFailed('SAMLResponse is larger than 512 KB');
  if (!/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) throw new SamlCheckFailed('SAMLResponse is not base64');
  return Buffer.from(samlResponse, 'base64').toString('utf8');
}

function texts(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list
    .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    .map((item) => item.trim());
}

const firstText = (value: unknown): string | null => texts(value)[0] ?? null;
