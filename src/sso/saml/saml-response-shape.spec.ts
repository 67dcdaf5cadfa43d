import { afterResponseIssuer, assertionOf, idOf, signatureOf } from '../../../test/support/saml-forgeries';
import { ResponseOptions, TestSamlIdp } from '../../../test/support/saml-idp';
import { SAML_REASONS } from './saml.messages';
import { responseShape } from './saml-response-shape';
import { SamlCheckFailed } from './saml-xml';

const base64 = (xml: string, encoding: BufferEncoding = 'utf8') => Buffer.from(xml, encoding).toString('base64');

describe(responseShape.name, () => {
  let idp: TestSamlIdp;
  beforeAll(async () => {
    idp = await TestSamlIdp.create('okta');
  });
  const respond = (options: Partial<ResponseOptions> = {}) =>
    idp.responseXml({
      acsUrl: 'http://sp.test/acs',
      audience: 'http://sp.test/sp',
      email: 'kim@acme.test',
      ...options,
    });
  const refusalOf = (field: string) => {
    try {
      responseShape(field);
    } catch (error) {
      if (error instanceof SamlCheckFailed) return error.message;
      throw error;
    }
    return 'passed';
  };

  it('a signed response: its root and its one assertion, a child of it', () => {
    const { root, assertion } = responseShape(base64(respond()));
    expect([root.localName, assertion?.localName, assertion?.parentNode]).toEqual(['Response', 'Assertion', root]);
  });

  it('an error response without an assertion passes the shape (its status is read after)', () => {
    const xml = respond({ sign: 'none' }).replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, '');
    expect(responseShape(base64(xml)).assertion).toBeNull();
  });

  const WITH_COMMENTS = 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments';
  const decoy = (attribute: string) => (xml: string) =>
    afterResponseIssuer(
      xml,
      `<samlp:Extensions><x:D xmlns:x="urn:d" ${attribute}="${idOf(xml, 'Assertion')}"/></samlp:Extensions>`,
    );
  const moveSignatureTo = (xml: string, to: (rest: string, signature: string) => string) =>
    to(xml.replace(signatureOf(xml), ''), signatureOf(xml));
  const cases: [string, () => string, (xml: string) => string][] = [
    ['bytes that are not UTF-8', () => base64(respond().replace('kim@', 'kïm@'), 'latin1'), () => SAML_REASONS.notUtf8],
    [
      'a declared encoding other than UTF-8',
      () => base64(respond({ prolog: '<?xml version="1.0" encoding="windows-1252"?>' })),
      () => SAML_REASONS.encoding('windows-1252'),
    ],
    ['text after the root', () => base64(`${respond()} x`), () => SAML_REASONS.trailingContent],
    [
      'a comment after the root, which is content after it',
      () => base64(`${respond()}<!---->`),
      () => SAML_REASONS.trailingContent,
    ],
    [
      'a comment in the NameID',
      () => base64(respond().replace('</saml:NameID>', '<!---->.x</saml:NameID>')),
      () => SAML_REASONS.comment,
    ],
    [
      'an XML declaration inside an element',
      () => base64(respond().replace('</saml:NameID>', '<?xml version="1.0"?></saml:NameID>')),
      () => SAML_REASONS.processingInstruction,
    ],
    ['an ID in a namespace', () => base64(decoy('x:ID')(respond())), () => SAML_REASONS.namespacedId('x:ID')],
    [
      'an Id on a second element',
      () => base64(decoy('Id')(respond())),
      (xml) => SAML_REASONS.duplicateId(idOf(xml, 'Assertion')),
    ],
    [
      'a second assertion',
      () =>
        base64(
          respond({ sign: 'none' }).replace(
            /<saml:Assertion[\s\S]*<\/saml:Assertion>/,
            (a) => a + a.replace(/ID="[^"]+"/, 'ID="_b"'),
          ),
        ),
      () => SAML_REASONS.assertions(2),
    ],
    [
      'an assertion in Extensions',
      () => {
        const xml = respond({ sign: 'assertion' });
        return base64(
          afterResponseIssuer(
            xml.replace(assertionOf(xml), ''),
            `<samlp:Extensions>${assertionOf(xml)}</samlp:Extensions>`,
          ),
        );
      },
      () => SAML_REASONS.assertionPlace('samlp:Extensions'),
    ],
    [
      '#WithComments',
      () => base64(respond({ canonicalization: WITH_COMMENTS })),
      () => SAML_REASONS.canonicalization(WITH_COMMENTS),
    ],
    [
      'a Signature in the Subject',
      () =>
        base64(
          moveSignatureTo(respond({ sign: 'assertion' }), (rest, s) =>
            rest.replace('<saml:Subject>', `<saml:Subject>${s}`),
          ),
        ),
      () => SAML_REASONS.signaturePlace('saml:Subject'),
    ],
    [
      'the assertion’s Signature in the Response',
      () => base64(moveSignatureTo(respond({ sign: 'assertion' }), afterResponseIssuer)),
      (xml) => SAML_REASONS.referenceTarget(`#${idOf(xml, 'Assertion')}`, 'Response', idOf(xml, 'Response')),
    ],
    [
      'a Signature with an Object',
      () => base64(respond().replace('</Signature>', '<Object/></Signature>')),
      () => SAML_REASONS.signatureObject,
    ],
  ];

  it.each(cases)('refused: %s', (_, field, reason) => {
    const value = field();
    expect(refusalOf(value)).toBe(reason(Buffer.from(value, 'base64').toString('utf8')));
  });

  it('elements nested 50 deep pass, 51 are refused, 40,000 without overflowing the stack', () => {
    const nested = (levels: number) =>
      respond().replace('<samlp:Status>', `${'<a>'.repeat(levels)}${'</a>'.repeat(levels)}<samlp:Status>`);
    expect(refusalOf(base64(nested(49)))).toBe('passed');
    expect(refusalOf(base64(nested(50)))).toBe(SAML_REASONS.tooDeep(50));
    expect(refusalOf(base64(nested(40_000)))).toBe(SAML_REASONS.tooDeep(50));
  });

  it('a CDATA section after the root, which xmldom throws on, is a refusal (never a 500)', () => {
    expect(refusalOf(base64(`${respond()}<![CDATA[x]]>`))).toMatch(/^the response is not well-formed XML: /);
  });
});
