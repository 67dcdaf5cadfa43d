import { generate } from 'selfsigned';
import { readIdpMetadata } from './saml-metadata';
import { SamlRefused } from './saml-xml';

const NOW = new Date('2026-11-28T12:00:00Z');
const DAY = 86_400_000;

async function certificate(notAfter: Date): Promise<string> {
  const { cert } = await generate([{ name: 'commonName', value: 'idp' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(notAfter.getTime() - 365 * DAY),
    notAfterDate: notAfter,
  });
  return cert.replace(/-----[^-]+-----|\s+/g, '');
}

const metadata = (certs: string[], bindings = ['HTTP-Redirect'], encryptionKey = -1) =>
  '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" ' +
  'entityID="http://www.okta.com/exk1"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
  certs
    .map(
      (cert, i) =>
        `<md:KeyDescriptor${i === encryptionKey ? ' use="encryption"' : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert}` +
        '</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>',
    )
    .join('') +
  bindings
    .map(
      (binding) =>
        `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="https://acme.okta.test/sso"/>`,
    )
    .join('') +
  '</md:IDPSSODescriptor></md:EntityDescriptor>';

describe('readIdpMetadata', () => {
  let current: string;
  let next: string;
  let expired: string;
  beforeAll(async () => {
    [current, next, expired] = await Promise.all([
      certificate(new Date(NOW.getTime() + 100 * DAY)),
      certificate(new Date(NOW.getTime() + 400 * DAY)),
      certificate(new Date(NOW.getTime() - DAY)),
    ]);
  });

  it('the entity ID, the HTTP-Redirect SSO URL and every valid signing certificate (a roll-over’s two), expired ones left out', () => {
    const read = readIdpMetadata(metadata([current, expired, next]), NOW);
    expect(read.entityId).toBe('http://www.okta.com/exk1');
    expect(read.ssoUrl).toBe('https://acme.okta.test/sso');
    expect(read.certificates.map((c) => c.notAfter)).toEqual([
      new Date(NOW.getTime() + 100 * DAY).toISOString().replace(/\.\d+Z$/, '.000Z'),
      new Date(NOW.getTime() + 400 * DAY).toISOString().replace(/\.\d+Z$/, '.000Z'),
    ]);
    expect(read.certificates[0].pem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(read.certificates[0].fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('HTTP-Redirect first; HTTP-POST when the provider publishes only that', () => {
    expect(readIdpMetadata(metadata([current], ['HTTP-POST', 'HTTP-Redirect']), NOW).ssoBinding).toBe('redirect');
    expect(readIdpMetadata(metadata([current], ['HTTP-POST']), NOW).ssoBinding).toBe('post');
  });

  it('an encryption key is not a signing certificate', () => {
    expect(readIdpMetadata(metadata([current, next], ['HTTP-Redirect'], 1), NOW).certificates).toHaveLength(1);
  });

  it.each([
    ['not XML', () => 'x<', /not well-formed/],
    ['a DTD', () => `<!DOCTYPE md [<!ENTITY x "y">]>${metadata([current])}`, /DTD/],
    ['a processing instruction', () => `<?xml-stylesheet href="x"?>${metadata([current])}`, /processing instruction/],
    ['no certificate', () => metadata([]), /no signing certificate/],
    ['only expired certificates', () => metadata([expired]), /every signing certificate has expired/],
    [
      'no SingleSignOnService of either binding',
      () => metadata([current], ['HTTP-Artifact']),
      /HTTP-Redirect or HTTP-POST/,
    ],
    ['a certificate that is not one', () => metadata(['bm90IGEgY2VydA==']), /not a certificate/],
  ])('refused: %s', (_, xml, reason) => {
    expect(() => readIdpMetadata(xml(), NOW)).toThrow(SamlRefused);
    expect(() => readIdpMetadata(xml(), NOW)).toThrow(reason);
  });
});
