import { assertionOf, withAttribute } from '../../../test/support/saml-forgeries';
import { ResponseOptions, TestSamlIdp } from '../../../test/support/saml-idp';
import { AssertionExpectations, readSignedAssertion } from './saml-assertion';
import { SAML_REASONS } from './saml.messages';

const ACS = 'http://sp.test/acs';
const SP = 'http://sp.test/sp';
const NOW = new Date('2026-12-02T07:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

describe(readSignedAssertion.name, () => {
  let idp: TestSamlIdp;
  let expected: AssertionExpectations;
  beforeAll(async () => {
    idp = await TestSamlIdp.create('okta');
    expected = {
      idpEntityId: idp.entityId,
      spEntityId: SP,
      acsUrl: ACS,
      inResponseTo: '_req',
      now: NOW,
      skewSeconds: 120,
    };
  });
  /** The assertion of a response issued at NOW (valid from a minute before to five minutes after). */
  const assertion = (options: Partial<ResponseOptions> = {}) =>
    assertionOf(
      idp.responseXml({
        acsUrl: ACS,
        audience: SP,
        email: 'Kim@Acme.test',
        inResponseTo: '_req',
        sign: 'none',
        notBefore: at(-60_000),
        notOnOrAfter: at(300_000),
        ...options,
      }),
    );
  const refusalOf = (xml: string, more: Partial<AssertionExpectations> = {}) => {
    try {
      readSignedAssertion(xml, { ...expected, ...more });
      return 'read';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('the person: the NameID as subject, the e-mail as sent, the groups; the earliest NotOnOrAfter', () => {
    const xml = assertion({ groups: ['Engineering', 'Hiring'] });
    expect(readSignedAssertion(xml, expected)).toEqual({
      id: expect.stringMatching(/^_a/),
      notOnOrAfter: at(300_000),
      inResponseTo: '_req',
      subject: 'Kim@Acme.test',
      email: 'Kim@Acme.test',
      groups: ['Engineering', 'Hiring'],
    });
  });

  it('the skew on both ends: NotBefore up to the skew ahead, NotOnOrAfter up to the skew behind', () => {
    expect(refusalOf(assertion({ notBefore: at(120_000) }))).toBe('read');
    expect(refusalOf(assertion({ notBefore: at(120_001) }))).toBe(SAML_REASONS.notYetValid(at(120_001), NOW, 120));
    expect(refusalOf(assertion({ notBefore: at(-600_000), notOnOrAfter: at(-119_999) }))).toBe('read');
    expect(refusalOf(assertion({ notBefore: at(-600_000), notOnOrAfter: at(-120_000) }))).toBe(
      SAML_REASONS.expired(at(-120_000), NOW, 120),
    );
  });

  it('the same address twice, in another case, is one; two addresses are refused', () => {
    const again = (x: string) => withAttribute(x, 'mail', 'kim@acme.test');
    expect(readSignedAssertion(assertion({ beforeSigning: again }), expected).email).toBe('Kim@Acme.test');
    const other = (x: string) => withAttribute(x, 'email', 'boss@acme.test');
    expect(refusalOf(assertion({ beforeSigning: other }))).toBe(SAML_REASONS.emails(2));
  });

  type Reason = string | ((idpEntityId: string) => string);
  const cases: [string, Partial<ResponseOptions>, Reason, Partial<AssertionExpectations>][] = [
    [
      'another Issuer',
      { issuer: 'http://other.test' },
      (entityId) => SAML_REASONS.issuer(entityId, 'http://other.test'),
      {},
    ],
    [
      'no bearer confirmation',
      { beforeSigning: (x) => x.replace('cm:bearer', 'cm:sender-vouches') },
      SAML_REASONS.noConfirmation,
      {},
    ],
    [
      'another Recipient',
      { recipient: 'http://other.test/acs' },
      SAML_REASONS.recipient(ACS, 'http://other.test/acs'),
      {},
    ],
    [
      'a confirmation of another request',
      {},
      SAML_REASONS.confirmationRequest('_req', '_other'),
      { inResponseTo: '_other' },
    ],
    [
      'a confirmation of a request, in an unsolicited response',
      {},
      SAML_REASONS.confirmationRequest('_req', 'none'),
      { inResponseTo: null },
    ],
    [
      'a second AudienceRestriction without this connection',
      {
        beforeSigning: (x) =>
          x.replace(
            '</saml:Conditions>',
            '<saml:AudienceRestriction><saml:Audience>http://b.test</saml:Audience></saml:AudienceRestriction></saml:Conditions>',
          ),
      },
      SAML_REASONS.audience(SP, 'http://b.test'),
      {},
    ],
    ['an empty AudienceRestriction', { audience: '' }, SAML_REASONS.audience(SP, 'none'), {}],
    ['no NotOnOrAfter', { notOnOrAfter: null }, SAML_REASONS.noNotOnOrAfter, {}],
    [
      'a NotBefore that is not a time',
      { beforeSigning: (x) => x.replace(/NotBefore="[^"]+"/, 'NotBefore="1"') },
      SAML_REASONS.badTime('NotBefore', '1'),
      {},
    ],
  ];

  it.each(cases)('refused: %s', (_, options, reason, more) => {
    expect(refusalOf(assertion(options), more)).toBe(typeof reason === 'string' ? reason : reason(idp.entityId));
  });
});
