import { X509Certificate } from 'node:crypto';
import { SsoConnectionEntity, SsoRequestEntity } from '../src/database/entities';
import { useSamlAcsSuite } from './support/saml-acs';
import {
  afterResponseIssuer,
  assertionOf,
  errorStatus,
  idOf,
  signatureOf,
  withAttribute,
} from './support/saml-forgeries';
import { signingKey, SigningKey } from './support/saml-idp';
import {
  ANY,
  Case,
  documentedSamlReasons,
  edited,
  samlReason,
  samlReasonsAsserted,
  sending,
} from './support/saml-reasons';

const EVIL = 'https://evil.example';
const WITH_COMMENTS = 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments';
const XSLT = 'http://www.w3.org/TR/1999/REC-xslt-19991116';

/**
 * Every reason docs/sso.md gives for a refused SAML sign-in ("Why a SAML sign-in was refused"), each
 * from a response posted to the ACS, asserted word for word as documented, with nothing changed.
 */
describe('POST /sso/saml/{id}/acs: why a sign-in was refused', () => {
  const { t, signInContext, expectNothingChanged } = useSamlAcsSuite();
  let foreign: SigningKey;
  beforeAll(async () => {
    foreign = await signingKey();
  });

  const assertionSigned = { sign: 'assertion' } as const;

  const cases: Case[] = [
    ['SAMLResponse missing', async (ctx) => ({ send: () => ctx.form({ RelayState: 'x' }), values: [] })],
    [
      'SAMLResponse is larger than 512 KB',
      async (ctx) => ({ send: () => ctx.form({ SAMLResponse: 'A'.repeat(512 * 1024 + 1) }), values: [] }),
    ],
    [
      'SAMLResponse is not base64',
      async (ctx) => ({ send: () => ctx.form({ SAMLResponse: '<Response/>' }), values: [] }),
    ],
    [
      'the response is not UTF-8',
      async (ctx) => {
        const xml = await ctx.respond({ beforeSigning: (x) => withAttribute(x, 'displayName', 'Zoë') });
        return { send: () => ctx.form({ SAMLResponse: Buffer.from(xml, 'latin1').toString('base64') }), values: [] };
      },
    ],
    [
      'the response declares the encoding {encoding}, and only UTF-8 is read',
      async (ctx) =>
        sending(ctx, await ctx.respond({ prolog: '<?xml version="1.0" encoding="ISO-8859-1"?>' }), 'ISO-8859-1'),
    ],
    [
      'the response holds a DTD, which is refused',
      async (ctx) => sending(ctx, await ctx.respond({ prolog: '<!DOCTYPE samlp:Response [<!ENTITY e "x">]>' })),
    ],
    [
      'the response holds a processing instruction, which is refused',
      async (ctx) => sending(ctx, await ctx.respond({ prolog: '<?evil x?>' })),
    ],
    [
      "the response is not well-formed XML: {the parser's message}",
      async (ctx) => sending(ctx, await edited(ctx, (x) => x.replace('</samlp:Response>', '')), ANY),
    ],
    [
      'the response has content after its root element',
      async (ctx) => sending(ctx, await edited(ctx, (x) => `${x}text`)),
    ],
    [
      'the response nests elements more than {levels} levels deep',
      async (ctx) =>
        sending(ctx, await edited(ctx, (x) => afterResponseIssuer(x, `${'<a>'.repeat(60)}${'</a>'.repeat(60)}`)), '50'),
    ],
    [
      'the response holds a comment, which is refused (no signature covers a comment)',
      async (ctx) => sending(ctx, await edited(ctx, (x) => x.replace('<DigestValue>', '<DigestValue><!---->'))),
    ],
    [
      'the message is not a SAML Response',
      async (ctx) => sending(ctx, '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_x"/>'),
    ],
    [
      'an ID attribute in a namespace ({attribute}), which is refused',
      async (ctx) => {
        const decoy = '<samlp:Extensions><x:Decoy xmlns:x="urn:decoy" x:ID="_decoy"/></samlp:Extensions>';
        return sending(ctx, await edited(ctx, (x) => afterResponseIssuer(x, decoy)), 'x:ID');
      },
    ],
    [
      'two elements have the ID {ID}',
      async (ctx) => {
        const xml = await ctx.respond();
        const decoy = `<samlp:Extensions><x:Decoy xmlns:x="urn:decoy" ID="${idOf(xml, 'Assertion')}"/></samlp:Extensions>`;
        return sending(ctx, afterResponseIssuer(xml, decoy), idOf(xml, 'Assertion'));
      },
    ],
    [
      'signature algorithm refused (RSA-SHA256 or stronger only): {algorithm}',
      async (ctx) =>
        sending(ctx, await ctx.respond({ algorithm: 'sha1' }), 'http://www.w3.org/2000/09/xmldsig#rsa-sha1'),
    ],
    [
      'digest algorithm refused (SHA-256 or stronger only): {algorithm}',
      async (ctx) =>
        sending(
          ctx,
          await edited(ctx, (x) =>
            x.replace('http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2000/09/xmldsig#sha1'),
          ),
          'http://www.w3.org/2000/09/xmldsig#sha1',
        ),
    ],
    [
      'canonicalisation refused (exclusive or inclusive XML canonicalisation, without comments): {algorithm}',
      async (ctx) => sending(ctx, await ctx.respond({ canonicalization: WITH_COMMENTS }), WITH_COMMENTS),
    ],
    [
      'transform refused (enveloped-signature and canonicalisation without comments only): {algorithm}',
      async (ctx) =>
        sending(
          ctx,
          await edited(ctx, (x) => x.replace('http://www.w3.org/2000/09/xmldsig#enveloped-signature', XSLT)),
          XSLT,
        ),
    ],
    [
      'a Signature outside the Response and the assertion (in {element})',
      async (ctx) => {
        const xml = await ctx.respond(assertionSigned);
        const moved = xml.replace(signatureOf(xml), '').replace('<saml:Subject>', `<saml:Subject>${signatureOf(xml)}`);
        return sending(ctx, moved, 'saml:Subject');
      },
    ],
    [
      'the {Response or Assertion} has {n} Signatures',
      async (ctx) => {
        const xml = await ctx.respond(assertionSigned);
        return sending(ctx, xml.replace(signatureOf(xml), signatureOf(xml).repeat(2)), 'Assertion', '2');
      },
    ],
    [
      'a Signature with {n} SignedInfo (exactly one is read)',
      async (ctx) =>
        sending(ctx, await edited(ctx, (x) => x.replace(/<SignedInfo>[\s\S]*?<\/SignedInfo>/, (s) => s + s)), '2'),
    ],
    [
      'a Signature with {n} References (exactly one is read)',
      async (ctx) =>
        sending(ctx, await edited(ctx, (x) => x.replace(/<Reference [\s\S]*?<\/Reference>/, (r) => r + r)), '2'),
    ],
    [
      'a Signature that carries an Object, which is refused',
      async (ctx) => sending(ctx, await edited(ctx, (x) => x.replace('</Signature>', '<Object/></Signature>'))),
    ],
    [
      'a Signature whose Reference ({URI}) is not the {Response or Assertion} it is in (#{ID})',
      async (ctx) => {
        const xml = await ctx.respond(assertionSigned);
        const moved = afterResponseIssuer(xml.replace(signatureOf(xml), ''), signatureOf(xml));
        return sending(ctx, moved, `#${idOf(xml, 'Assertion')}`, 'Response', idOf(xml, 'Response'));
      },
    ],
    [
      'encrypted assertions are not supported: turn assertion encryption off at the provider',
      async (ctx) => {
        const encrypted = '<saml:EncryptedAssertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"/>';
        return sending(ctx, await edited(ctx, (x) => x.replace('<saml:Assertion ', `${encrypted}<saml:Assertion `)));
      },
    ],
    [
      'the response holds {n} assertions (exactly one is read)',
      async (ctx) => {
        const xml = await ctx.respond(assertionSigned);
        const other = assertionOf(xml)
          .replace(signatureOf(xml), '')
          .replace(/ID="[^"]+"/, 'ID="_other"');
        return sending(ctx, xml.replace('<saml:Assertion ', `${other}<saml:Assertion `), '2');
      },
    ],
    [
      "an assertion outside the Response's children (in {element})",
      async (ctx) => {
        const xml = await ctx.respond(assertionSigned);
        const hidden = `<samlp:Extensions>${assertionOf(xml)}</samlp:Extensions>`;
        return sending(ctx, afterResponseIssuer(xml.replace(assertionOf(xml), ''), hidden), 'samlp:Extensions');
      },
    ],
    ['Destination missing', async (ctx) => sending(ctx, await ctx.respond({ destination: null }))],
    [
      'Destination mismatch: expected {ACS URL}, got {Destination}',
      async (ctx) => sending(ctx, await ctx.respond({ destination: `${EVIL}/acs` }), ctx.acsUrl, `${EVIL}/acs`),
    ],
    [
      'an unsolicited response (no InResponseTo), and this connection refuses IdP-initiated sign-ins',
      async (ctx) => sending(ctx, await ctx.respond({ inResponseTo: null })),
    ],
    [
      'InResponseTo {ID} is unknown',
      async (ctx) => sending(ctx, await ctx.respond({ inResponseTo: '_unknown' }), '_unknown'),
    ],
    [
      "Response Issuer mismatch: expected {the provider's entity ID}, got {Issuer}",
      async (ctx) => {
        const beforeSigning = (x: string) => x.replace(/(<saml:Issuer [^>]*>)[^<]+/, `$1${EVIL}/idp`);
        return sending(ctx, await ctx.respond({ beforeSigning }), ctx.idpEntityId, `${EVIL}/idp`);
      },
    ],
    [
      'a response whose status is not Success carries an assertion',
      async (ctx) => sending(ctx, await ctx.respond({ beforeSigning: errorStatus })),
    ],
    [
      'the provider answered {status}',
      async (ctx) => {
        const beforeSigning = (x: string) => errorStatus(x.replace(assertionOf(x), ''));
        const xml = await ctx.respond({ sign: 'none', beforeSigning });
        return {
          ...sending(ctx, xml, 'Responder (AuthnFailed): the user cancelled'),
          refusal: { status: 400, code: 'SSO_IDP_ERROR' },
        };
      },
    ],
    [
      'the response holds no assertion',
      async (ctx) =>
        sending(ctx, await ctx.respond({ sign: 'response', beforeSigning: (x) => x.replace(assertionOf(x), '') })),
    ],
    [
      'the connection has no certificate of the provider: refresh or replace its metadata (fail closed)',
      async (ctx) => {
        const connections = t.dataSource.getRepository(SsoConnectionEntity);
        const { discovery } = await connections.findOneByOrFail({ id: ctx.id });
        const stripped = JSON.stringify({ ...JSON.parse(discovery), certificates: [] });
        await connections.update({ id: ctx.id }, { discovery: stripped });
        return sending(ctx, await ctx.respond());
      },
    ],
    ['no signature', async (ctx) => sending(ctx, await ctx.respond({ sign: 'none' }))],
    [
      'the response is signed but the assertion is not (wantAssertionsSigned)',
      async (ctx) => sending(ctx, await ctx.respond({ sign: 'response' })),
    ],
    [
      "signed by a key that is not one of the connection's certificates (fingerprint {fingerprint})",
      async (ctx) =>
        sending(ctx, await ctx.respond({ key: foreign }), new X509Certificate(foreign.cert).fingerprint256),
    ],
    [
      'the signature does not verify (the signed content was changed)',
      async (ctx) =>
        sending(
          ctx,
          await edited(ctx, (x) => x.replace(`>${ctx.email}</saml:NameID>`, `>x${ctx.email}</saml:NameID>`)),
        ),
    ],
    [
      'the assertion has no ID',
      async (ctx) => {
        const beforeSigning = (x: string) => x.replace(/(<saml:Assertion [^>]*?) ID="[^"]+"/, '$1');
        return sending(ctx, await ctx.respond({ sign: 'response', beforeSigning }));
      },
      { wantAssertionsSigned: false },
    ],
    [
      "Issuer mismatch: expected {the provider's entity ID}, got {Issuer}",
      async (ctx) => {
        const beforeSigning = (x: string) => x.replace(/(<saml:Assertion[^>]*><saml:Issuer>)[^<]+/, `$1${EVIL}/idp`);
        return sending(ctx, await ctx.respond({ beforeSigning }), ctx.idpEntityId, `${EVIL}/idp`);
      },
    ],
    [
      'no subject confirmation for this ACS',
      async (ctx) =>
        sending(ctx, await ctx.respond({ beforeSigning: (x) => x.replace('cm:bearer', 'cm:holder-of-key') })),
    ],
    [
      'Recipient mismatch: expected {ACS URL}, got {Recipients}',
      async (ctx) => sending(ctx, await ctx.respond({ recipient: `${EVIL}/acs` }), ctx.acsUrl, `${EVIL}/acs`),
    ],
    [
      'the subject confirmation answers InResponseTo {ID}, the response {InResponseTo}',
      async (ctx) => {
        const beforeSigning = (x: string) =>
          x.replace(/(<saml:SubjectConfirmationData InResponseTo=")[^"]+/, '$1_other');
        const xml = await ctx.respond({ beforeSigning });
        return sending(ctx, xml, '_other', /InResponseTo="([^"]+)"/.exec(xml)![1]);
      },
    ],
    [
      'the assertion has {n} Conditions (exactly one is read)',
      async (ctx) => {
        const beforeSigning = (x: string) => x.replace(/<saml:Conditions[\s\S]*?<\/saml:Conditions>/, (c) => c + c);
        return sending(ctx, await ctx.respond({ beforeSigning }), '2');
      },
    ],
    [
      "the assertion's {NotBefore or NotOnOrAfter} is not a time: {value}",
      async (ctx) => {
        const beforeSigning = (x: string) => x.replace(/NotBefore="[^"]+"/, 'NotBefore="yesterday"');
        return sending(ctx, await ctx.respond({ beforeSigning }), 'NotBefore', 'yesterday');
      },
    ],
    [
      'not valid before {NotBefore} (now {now}, skew {SSO_CLOCK_SKEW_SECONDS} s)',
      async (ctx) => {
        const notBefore = new Date(Date.now() + 600_000);
        const xml = await ctx.respond({ notBefore, notOnOrAfter: new Date(Date.now() + 900_000) });
        return sending(ctx, xml, notBefore.toISOString(), ANY, '120');
      },
    ],
    ['the assertion has no NotOnOrAfter', async (ctx) => sending(ctx, await ctx.respond({ notOnOrAfter: null }))],
    [
      'expired at {NotOnOrAfter} (now {now}, skew {SSO_CLOCK_SKEW_SECONDS} s)',
      async (ctx) => {
        const notOnOrAfter = new Date(Date.now() - 600_000);
        const xml = await ctx.respond({ notBefore: new Date(Date.now() - 3_600_000), notOnOrAfter });
        return sending(ctx, xml, notOnOrAfter.toISOString(), ANY, '120');
      },
    ],
    [
      'the assertion has no AudienceRestriction',
      async (ctx) => {
        const beforeSigning = (x: string) =>
          x.replace(/<saml:AudienceRestriction>[\s\S]*?<\/saml:AudienceRestriction>/, '');
        return sending(ctx, await ctx.respond({ beforeSigning }));
      },
    ],
    [
      'Audience mismatch: expected {entity ID} in every AudienceRestriction, got {Audiences}',
      async (ctx) =>
        sending(ctx, await ctx.respond({ audience: `${ctx.entityId}x` }), ctx.entityId, `${ctx.entityId}x`),
    ],
    ['the assertion has no NameID', async (ctx) => sending(ctx, await ctx.respond({ nameIdXml: '' }))],
    [
      'the assertion gives {n} e-mail addresses (exactly one is read)',
      async (ctx) => {
        const beforeSigning = (x: string) => withAttribute(x, 'mail', `other-${ctx.email}`);
        return sending(ctx, await ctx.respond({ beforeSigning }), '2');
      },
    ],
    [
      'the assertion has no e-mail: a NameID in e-mail format or an email attribute',
      async (ctx) => {
        const nameIdXml =
          '<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">p-1</saml:NameID>';
        return sending(ctx, await ctx.respond({ nameIdXml, beforeSigning: (x) => x.split(ctx.email).join('') }));
      },
    ],
    [
      'assertion {ID} was used already',
      async (ctx) => {
        const xml = await ctx.respond();
        expect((await ctx.post(xml)).status).toBe(302);
        return { ...sending(ctx, xml, idOf(xml, 'Assertion')), refusal: { status: 409, code: 'SSO_REPLAYED' } };
      },
    ],
    [
      'InResponseTo {ID} already used',
      async (ctx) => {
        const xml = await ctx.respond();
        expect((await ctx.post(xml)).status).toBe(302);
        const requestId = /InResponseTo="([^"]+)"/.exec(xml)![1];
        const again = await ctx.respond({ inResponseTo: requestId });
        return { ...sending(ctx, again, requestId), refusal: { remembered: true } };
      },
    ],
    [
      'InResponseTo {ID} expired',
      async (ctx) => {
        const xml = await ctx.respond();
        const requestId = /InResponseTo="([^"]+)"/.exec(xml)![1];
        await t.dataSource.getRepository(SsoRequestEntity).update({ state: requestId }, { expiresAt: new Date(0) });
        return { ...sending(ctx, xml, requestId), refusal: { remembered: true } };
      },
    ],
  ];

  it.each(cases)('%s', async (template, build, connection = {}) => {
    const ctx = await signInContext(connection);
    const { send, values, refusal } = await build(ctx);
    await expectNothingChanged(ctx.id, [ctx.email], send, samlReason(template, ...values), refusal);
  });

  it('every reason docs/sso.md lists is asserted above', () => {
    expect(documentedSamlReasons.filter((reason) => !samlReasonsAsserted.has(reason))).toEqual([]);
  });
});
