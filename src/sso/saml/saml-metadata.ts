import { X509Certificate } from 'node:crypto';
import { children, elements, parseSaml, SAML_BINDINGS, SAML_NS, SamlRefused } from './saml-xml';

/** A signing certificate of the identity provider, as the connection keeps it. */
export interface IdpCertificate {
  /** PEM. */
  pem: string;
  /** SHA-256 of the DER, colon-separated hex, as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint: string;
  notAfter: string;
}

/** What a SAML connection keeps of the identity provider's metadata (its `discovery` column). */
export interface IdpMetadata {
  entityId: string;
  /** Where AuthnRequests go. */
  ssoUrl: string;
  /** How: HTTP-Redirect (a 302), or HTTP-POST (a page that posts a form) when the provider publishes only that. */
  ssoBinding: 'redirect' | 'post';
  certificates: IdpCertificate[];
}

/**
 * The identity provider's metadata read (docs/sso.md, "SAML"): its entity ID, its SSO URL (the
 * HTTP-Redirect binding, else HTTP-POST) and every signing certificate, so that a roll-over, when the
 * provider publishes the next certificate beside the current one, never breaks a sign-in. Refused with
 * a reason: not XML, a DTD, no IDPSSODescriptor, no SSO URL, no certificate, only expired ones.
 */
export function readIdpMetadata(xml: string, now: Date): IdpMetadata {
  const document = parseSaml(xml, 'the metadata');
  const [entity] = elements(document, SAML_NS.metadata, 'EntityDescriptor');
  if (!entity) throw new SamlRefused('the metadata has no EntityDescriptor');
  const entityId = entity.getAttribute('entityID')?.trim();
  if (!entityId) throw new SamlRefused('the EntityDescriptor has no entityID');
  if (entityId.length > 500) throw new SamlRefused('the entityID is longer than 500 characters');
  const [idp] = children(entity, SAML_NS.metadata, 'IDPSSODescriptor');
  if (!idp) throw new SamlRefused('the metadata has no IDPSSODescriptor: it is not an identity provider’s');
  const services = children(idp, SAML_NS.metadata, 'SingleSignOnService');
  const service =
    services.find((s) => s.getAttribute('Binding') === SAML_BINDINGS.redirect) ??
    services.find((s) => s.getAttribute('Binding') === SAML_BINDINGS.post);
  const ssoUrl = service?.getAttribute('Location')?.trim();
  if (!service || !ssoUrl) throw new SamlRefused('no SingleSignOnService with the HTTP-Redirect or HTTP-POST binding');
  if (!URL.canParse(ssoUrl) || !/^https?:$/.test(new URL(ssoUrl).protocol))
    throw new SamlRefused(`the SingleSignOnService Location is not an http or https URL: ${ssoUrl.slice(0, 200)}`);
  const signing = children(idp, SAML_NS.metadata, 'KeyDescriptor').filter(
    (key) => (key.getAttribute('use') || 'signing') === 'signing',
  );
  const certificates: IdpCertificate[] = [];
  for (const key of signing)
    for (const data of elements(key, SAML_NS.dsig, 'X509Certificate')) {
      const certificate = certificateOf(data.textContent ?? '');
      if (!certificates.some((known) => known.fingerprint === certificate.fingerprint)) certificates.push(certificate);
    }
  if (!certificates.length) throw new SamlRefused('the metadata has no signing certificate');
  const valid = certificates.filter((certificate) => new Date(certificate.notAfter) > now);
  if (!valid.length)
    throw new SamlRefused(
      `every signing certificate has expired (the last on ${certificates
        .map((c) => c.notAfter)
        .sort()
        .at(-1)})`,
    );
  const ssoBinding = service.getAttribute('Binding') === SAML_BINDINGS.redirect ? 'redirect' : 'post';
  return { entityId, ssoUrl, ssoBinding, certificates: valid };
}

function certificateOf(base64: string): IdpCertificate {
  const body = base64.replace(/\s+/g, '');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    throw new SamlRefused('an X509Certificate of the metadata is not a certificate');
  }
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  return { pem, fingerprint: certificate.fingerprint256, notAfter: new Date(certificate.validTo).toISOString() };
}
