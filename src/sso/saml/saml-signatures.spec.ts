import { X509Certificate } from 'node:crypto';
import { ResponseOptions, signingKey, SigningKey, TestSamlIdp } from '../../../test/support/saml-idp';
import { readIdpMetadata } from './saml-metadata';
import { responseShape } from './saml-response-shape';
import { signatureRefusal } from './saml-signatures';
import { SAML_REASONS } from './saml.messages';

describe(signatureRefusal.name, () => {
  let idp: TestSamlIdp;
  let foreign: SigningKey;
  beforeAll(async () => {
    [idp, foreign] = await Promise.all([TestSamlIdp.create('okta'), signingKey()]);
  });
  const certificates = () => readIdpMetadata(idp.metadata(), new Date()).certificates;
  const shapeOf = (xml: string) => responseShape(Buffer.from(xml).toString('base64'));
  const respond = (options: Partial<ResponseOptions>) =>
    idp.responseXml({
      acsUrl: 'http://sp.test/acs',
      audience: 'http://sp.test/sp',
      email: 'kim@acme.test',
      ...options,
    });
  const judged = (options: Partial<ResponseOptions>, wantAssertionsSigned = true, edit = (xml: string) => xml) =>
    signatureRefusal(shapeOf(edit(respond(options))), certificates(), wantAssertionsSigned);

  it('signed by the connection’s key: which parts are signed, whatever they say (the library checks the digests)', () => {
    expect(judged({ sign: 'both' })).toEqual({ signed: { response: true, assertion: true } });
    expect(judged({ sign: 'response' }, false)).toEqual({ signed: { response: true, assertion: false } });
    const changed = (xml: string) => xml.replace('>kim@acme.test</saml:NameID>', '>boss@acme.test</saml:NameID>');
    expect(judged({ sign: 'assertion' }, true, changed)).toEqual({ signed: { response: false, assertion: true } });
  });

  it('refused: no certificate, nothing signed, the assertion unsigned when wanted', () => {
    const shape = shapeOf(respond({ sign: 'both' }));
    expect(signatureRefusal(shape, [], true)).toEqual({ refused: SAML_REASONS.noCertificate });
    expect(judged({ sign: 'none' }, false)).toEqual({ refused: SAML_REASONS.noSignature });
    expect(judged({ sign: 'response' })).toEqual({ refused: SAML_REASONS.assertionUnsigned });
  });

  it('refused: a key that is not the connection’s, by the fingerprint of the certificate in KeyInfo, or unknown without one', () => {
    const fingerprint = new X509Certificate(foreign.cert).fingerprint256;
    expect(judged({ sign: 'assertion', key: foreign })).toEqual({ refused: SAML_REASONS.foreignKey(fingerprint) });
    const keyless = (xml: string) => xml.replace(/<KeyInfo>[\s\S]*?<\/KeyInfo>/, '');
    expect(judged({ sign: 'assertion', key: foreign }, true, keyless)).toEqual({
      refused: SAML_REASONS.foreignKey(null),
    });
    // A foreign signature that names the provider's certificate: its value was changed, not the key.
    const certificate = (xml: string) => /<X509Certificate>([^<]+)/.exec(xml)![1];
    const provider = certificate(respond({ sign: 'assertion' }));
    const named = (xml: string) => xml.replace(certificate(xml), provider);
    expect(judged({ sign: 'assertion', key: foreign }, true, named)).toEqual({ refused: SAML_REASONS.changed });
  });
});
