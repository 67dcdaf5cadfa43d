import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Profile, SAML, SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';
import { Clock } from '../../common/clock';
import { SamlMetadataSource } from '../sso-connection-body';
import { SsoFetchError, SsoHttp } from '../sso-http';
import { IdpMetadata, readIdpMetadata } from './saml-metadata';
import { readSignedAssertion, SamlAssertion } from './saml-assertion';
import { responseShape } from './saml-response-shape';
import { SignedParts, signatureRefusal } from './saml-signatures';
import { SAML_REASONS } from './saml.messages';
import { children, NAMEID_EMAIL, parseSaml, SAML_NS, SamlCheckFailed, SamlRefused } from './saml-xml';

/** A connection's SAML settings: the provider's side from its metadata, this service's side per connection. */
export interface SamlSettings {
  idp: IdpMetadata;
  /** This connection's own entity ID and ACS: an assertion meant for another connection never matches. */
  spEntityId: string;
  acsUrl: string;
  wantAssertionsSigned: boolean;
  allowIdpInitiated: boolean;
  clockSkewMs: number;
}

/** Answers whether this service sent a request of that ID for the connection (used or not: that is checked after). */
export type RequestLookup = (requestId: string) => Promise<Date | null>;

/**
 * SAML 2.0 for single sign-on (docs/sso.md, "SAML"), through @node-saml/node-saml: the AuthnRequest
 * over HTTP-Redirect (or HTTP-POST), the SP metadata, and a response's checks. node-saml verifies the
 * signatures with the connection's certificates only (never a key carried in the message) and hands
 * over the signed assertion; every other check is this service's, each refusal naming its check
 * (saml.messages.ts): the response's shape before the library (responseShape), what its signatures say
 * of themselves (signatureRefusal), the response's own fields, and the signed assertion after it
 * (readSignedAssertion).
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
    const saml = this.saml(settings, undefined, requestId);
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
    const saml = this.saml(settings, undefined, requestId);
    const message = await saml.getAuthorizeMessageAsync(relayState, undefined, {});
    const fields = Object.fromEntries(Object.entries(message).map(([name, value]) => [name, String(value)]));
    return { action: settings.idp.ssoUrl, fields };
  }

  /** This connection's SP metadata: its entity ID, its ACS (HTTP-POST), NameID e-mail, assertions signed. */
  serviceProviderMetadata(settings: SamlSettings): string {
    return this.saml(settings).generateServiceProviderMetadata(null);
  }

  /** The InResponseTo of a response, unverified: only to tell whose sign-in it claims to answer. */
  claimedRequest(samlResponse: string): string | null {
    try {
      if (samlResponse.length > 512 * 1024) return null;
      const root = parseSaml(Buffer.from(samlResponse, 'base64').toString('utf8'), 'the response').documentElement;
      return root?.getAttribute('InResponseTo') || null;
    } catch {
      return null;
    }
  }

  /** Every check of a response, in order; the assertion that passed them. */
  async validate(settings: SamlSettings, samlResponse: string, knownRequest: RequestLookup): Promise<SamlAssertion> {
    const shape = responseShape(samlResponse);
    const { root, assertion } = shape;
    const destination = root.getAttribute('Destination');
    if (destination !== settings.acsUrl)
      throw new SamlCheckFailed(
        destination ? SAML_REASONS.destination(settings.acsUrl, destination) : SAML_REASONS.destinationMissing,
      );
    const inResponseTo = root.getAttribute('InResponseTo') || null;
    if (inResponseTo === null && !settings.allowIdpInitiated) throw new SamlCheckFailed(SAML_REASONS.unsolicited);
    if (inResponseTo !== null && !(await knownRequest(inResponseTo)))
      throw new SamlCheckFailed(SAML_REASONS.unknownRequest(inResponseTo.slice(0, 100)));
    const [responseIssuer] = children(root, SAML_NS.assertion, 'Issuer');
    const issuer = responseIssuer?.textContent?.trim() ?? '';
    if (responseIssuer && issuer !== settings.idp.entityId)
      throw new SamlCheckFailed(SAML_REASONS.responseIssuer(settings.idp.entityId, issuer || 'none'));
    const status = statusOf(root);
    if (status !== 'Success') {
      if (assertion) throw new SamlCheckFailed(SAML_REASONS.errorWithAssertion);
      throw new SamlCheckFailed(SAML_REASONS.idpError(status), true);
    }
    if (!assertion) throw new SamlCheckFailed(SAML_REASONS.noAssertion);
    const signatures = signatureRefusal(shape, settings.idp.certificates, settings.wantAssertionsSigned);
    if ('refused' in signatures) throw new SamlCheckFailed(signatures.refused);
    let assertionXml: string | undefined;
    try {
      const { profile } = await this.saml(settings, signatures.signed).validatePostResponseAsync({
        SAMLResponse: samlResponse,
      });
      assertionXml = profile?.getAssertionXml?.();
    } catch {
      // Its shape and its keys passed, and node-saml here checks signatures only: a digest or a signed SignedInfo differs.
    }
    if (!assertionXml) throw new SamlCheckFailed(SAML_REASONS.changed);
    return readSignedAssertion(assertionXml, {
      idpEntityId: settings.idp.entityId,
      spEntityId: settings.spEntityId,
      acsUrl: settings.acsUrl,
      inResponseTo,
      now: this.clock.now(),
      skewSeconds: settings.clockSkewMs / 1000,
    });
  }

  /**
   * node-saml for a connection. For a response (`signed`: what carries a Signature), it verifies
   * every signature there is and hands over the signed assertion (SignaturesOnly); the checks of
   * requests, times and audience are this service's (sso_requests, readSignedAssertion).
   */
  private saml(settings: SamlSettings, signed?: SignedParts, requestId?: string): SAML {
    const config: SamlConfig = {
      idpCert: settings.idp.certificates.map((certificate) => certificate.pem),
      issuer: settings.spEntityId,
      callbackUrl: settings.acsUrl,
      entryPoint: settings.idp.ssoUrl,
      identifierFormat: NAMEID_EMAIL,
      wantAssertionsSigned: settings.wantAssertionsSigned || !!signed?.assertion,
      wantAuthnResponseSigned: !!signed?.response,
      validateInResponseTo: ValidateInResponseTo.never,
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
      authnRequestBinding: settings.idp.ssoBinding === 'post' ? 'HTTP-POST' : 'HTTP-Redirect',
      // HTTP-POST carries the request base64-encoded only: deflate belongs to HTTP-Redirect (SAML bindings 3.5.4).
      skipRequestCompression: settings.idp.ssoBinding === 'post',
      ...(requestId && { generateUniqueId: () => requestId }),
    };
    return new SignaturesOnly(config);
  }
}

/** node-saml up to the signatures: what they cover, the assertion, is handed over unread. */
class SignaturesOnly extends SAML {
  protected override async processValidlySignedAssertionAsync(assertionXml: string) {
    return { profile: { getAssertionXml: () => assertionXml } as Profile, loggedOut: false };
  }
}

/** The top-level StatusCode's last part (`Success`, `Requester`…), with the second level and the StatusMessage. */
function statusOf(root: Element): string {
  const [status] = children(root, SAML_NS.protocol, 'Status');
  const [code] = status ? children(status, SAML_NS.protocol, 'StatusCode') : [];
  const [detail] = code ? children(code, SAML_NS.protocol, 'StatusCode') : [];
  const last = (element?: Element) => element?.getAttribute('Value')?.split(':').at(-1) ?? '';
  const top = last(code) || 'no status';
  if (top === 'Success') return top;
  const message = status ? children(status, SAML_NS.protocol, 'StatusMessage')[0]?.textContent?.trim() : '';
  return `${top}${detail ? ` (${last(detail)})` : ''}${message ? `: ${message.slice(0, 300)}` : ''}`;
}
