import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

const ALGORITHMS = {
  sha256: {
    signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    digest: 'http://www.w3.org/2001/04/xmlenc#sha256',
  },
  sha1: { signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1', digest: 'http://www.w3.org/2000/09/xmldsig#sha1' },
};
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const PERSISTENT_FORMAT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const ENTRA_EMAIL = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';
const ENTRA_GROUPS = 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups';

/** A signing key and its self-signed certificate. */
export interface SigningKey {
  privateKey: string;
  cert: string;
}

/** A key pair and certificate, valid from `notBefore` to `notAfter` (an expired one for the metadata's refusals). */
export async function signingKey(notBefore = new Date(Date.now() - 3_600_000), notAfter?: Date): Promise<SigningKey> {
  const pems = await generate([{ name: 'commonName', value: 'Test SAML IdP' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: notBefore,
    notAfterDate: notAfter ?? new Date(notBefore.getTime() + 365 * 86_400_000),
  });
  return { privateKey: pems.private, cert: pems.cert };
}

const certBody = (pem: string) => pem.replace(/-----[^-]+-----|\s+/g, '');
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** What a person's assertion says; the rest of a response's fields, each of which a forged test changes. */
export interface ResponseOptions {
  acsUrl: string;
  audience: string;
  email: string;
  /** The NameID's value (default: the e-mail, or a persistent id for the Entra shape), raw XML allowed. */
  nameIdXml?: string;
  inResponseTo?: string | null;
  groups?: string[];
  destination?: string | null;
  recipient?: string;
  issuer?: string;
  notBefore?: Date;
  /** When the assertion stops being acceptable; null leaves NotOnOrAfter out of it. */
  notOnOrAfter?: Date | null;
  assertionId?: string;
  /** Okta's default signs the response and the assertion, Entra's the assertion only; `none` signs nothing. */
  sign?: 'assertion' | 'response' | 'both' | 'none';
  algorithm?: 'sha256' | 'sha1';
  /** Signs with this key instead of the provider's (its certificate in KeyInfo). */
  key?: SigningKey;
  /** Raw XML put before the root element (a DTD, say). */
  prolog?: string;
  /** An edit of the response's XML before it is signed (what the provider then signs). */
  beforeSigning?: (xml: string) => string;
  /** The canonicalisation of SignedInfo and of the signed element (default: exclusive, without comments). */
  canonicalization?: string;
}

/**
 * A SAML identity provider in the test: its metadata, and responses built and signed with xml-crypto
 * as Okta (NameID e-mail, `email` and `groups` attributes, response and assertion signed) or Entra ID (a
 * persistent NameID, the claims' URIs, the assertion signed) shape them.
 */
export class TestSamlIdp {
  private constructor(
    readonly shape: 'okta' | 'entra',
    readonly entityId: string,
    readonly ssoUrl: string,
    readonly key: SigningKey,
  ) {}

  static async create(shape: 'okta' | 'entra' = 'okta'): Promise<TestSamlIdp> {
    const id = randomUUID().slice(0, 8);
    const entityId = shape === 'okta' ? `http://www.okta.com/exk${id}` : `https://sts.windows.net/${id}/`;
    const ssoUrl =
      shape === 'okta' ? `https://acme.okta.test/app/${id}/sso/saml` : `https://login.microsoftonline.test/${id}/saml2`;
    return new TestSamlIdp(shape, entityId, ssoUrl, await signingKey());
  }

  /** The IdP's metadata: its entity ID, SSO URL (HTTP-Redirect) and certificates, their `use` (null: none given). */
  metadata(certs: string[] = [this.key.cert], entityId = this.entityId, use: string | null = 'signing'): string {
    const keys = certs
      .map(
        (cert) =>
          `<md:KeyDescriptor${use === null ? '' : ` use="${use}"`}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(cert)}` +
          '</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>',
      )
      .join('');
    return (
      `<?xml version="1.0" encoding="UTF-8"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" ` +
      `xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escape(entityId)}"><md:IDPSSODescriptor ` +
      `WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}` +
      `<md:NameIDFormat>${EMAIL_FORMAT}</md:NameIDFormat>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${this.ssoUrl}"/>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.ssoUrl}"/>` +
      '</md:IDPSSODescriptor></md:EntityDescriptor>'
    );
  }

  /** The AuthnRequest that a start sent here (HTTP-Redirect: deflated, base64), read back. */
  static authnRequest(location: string): { id: string; xml: string; relayState: string | null } {
    const url = new URL(location);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    return { id: /\sID="([^"]+)"/.exec(xml)![1], xml, relayState: url.searchParams.get('RelayState') };
  }

  /** A response's XML, signed as asked. */
  responseXml(options: ResponseOptions): string {
    const now = Date.now();
    const notBefore = (options.notBefore ?? new Date(now - 60_000)).toISOString();
    const until =
      options.notOnOrAfter === null
        ? ''
        : ` NotOnOrAfter="${(options.notOnOrAfter ?? new Date(now + 5 * 60_000)).toISOString()}"`;
    const issued = new Date(now).toISOString();
    const inResponseTo = options.inResponseTo ? ` InResponseTo="${escape(options.inResponseTo)}"` : '';
    const destination =
      options.destination === null ? '' : ` Destination="${escape(options.destination ?? options.acsUrl)}"`;
    const issuer = escape(options.issuer ?? this.entityId);
    const entra = this.shape === 'entra';
    const nameId =
      options.nameIdXml ??
      (entra
        ? `<saml:NameID Format="${PERSISTENT_FORMAT}">${escape(`entra-${options.email}`)}</saml:NameID>`
        : `<saml:NameID Format="${EMAIL_FORMAT}">${escape(options.email)}</saml:NameID>`);
    const attribute = (name: string, values: string[]) =>
      `<saml:Attribute Name="${name}">${values
        .map((value) => `<saml:AttributeValue xsi:type="xs:string">${escape(value)}</saml:AttributeValue>`)
        .join('')}</saml:Attribute>`;
    const attributes =
      attribute(entra ? ENTRA_EMAIL : 'email', [options.email]) +
      (options.groups?.length ? attribute(entra ? ENTRA_GROUPS : 'groups', options.groups) : '');
    const assertionId = options.assertionId ?? `_a${randomUUID().replace(/-/g, '')}`;
    const audience = options.audience === '' ? '' : `<saml:Audience>${escape(options.audience)}</saml:Audience>`;
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:xs="http://www.w3.org/2001/XMLSchema" ` +
      `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${assertionId}" IssueInstant="${issued}" Version="2.0">` +
      `<saml:Issuer>${issuer}</saml:Issuer><saml:Subject>${nameId}` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData` +
      `${inResponseTo}${until} Recipient="${escape(options.recipient ?? options.acsUrl)}"/>` +
      `</saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${notBefore}"${until}>` +
      `<saml:AudienceRestriction>${audience}</saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${assertionId}"><saml:AuthnContext>` +
      '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>' +
      `</saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`;
    let xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r${randomUUID().replace(/-/g, '')}"` +
      `${inResponseTo}${destination} IssueInstant="${issued}" Version="2.0">` +
      `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${issuer}</saml:Issuer>` +
      '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
      `${assertion}</samlp:Response>`;
    xml = options.beforeSigning?.(xml) ?? xml;
    const sign = options.sign ?? (entra ? 'assertion' : 'both');
    const how = {
      key: options.key ?? this.key,
      algorithm: options.algorithm ?? 'sha256',
      c14n: options.canonicalization,
    };
    if (sign === 'assertion' || sign === 'both') xml = signed(xml, 'Assertion', how);
    if (sign === 'response' || sign === 'both') xml = signed(xml, 'Response', how);
    return (options.prolog ?? '') + xml;
  }

  /** The form field: the response's XML in base64. */
  response(options: ResponseOptions): string {
    return Buffer.from(this.responseXml(options)).toString('base64');
  }
}

/** How a response is signed: the key, the algorithms, the canonicalisation (exclusive, without comments, by default). */
interface Signing {
  key: SigningKey;
  algorithm: 'sha256' | 'sha1';
  c14n?: string;
}

/** The element signed (enveloped, exclusive canonicalisation), its Signature after its Issuer, KeyInfo carrying the certificate. */
function signed(xml: string, element: 'Assertion' | 'Response', { key, algorithm, c14n = EXC_C14N }: Signing): string {
  const signature = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.cert,
    signatureAlgorithm: ALGORITHMS[algorithm].signature,
    canonicalizationAlgorithm: c14n,
  });
  const path = element === 'Assertion' ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
  signature.addReference({
    xpath: path,
    transforms: [ENVELOPED, c14n],
    digestAlgorithm: ALGORITHMS[algorithm].digest,
  });
  signature.computeSignature(xml, {
    location: { reference: `${path}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signature.getSignedXml();
}
