import { SsoConnectionEntity } from '../src/database/entities';
import { samlEndpoints, useSamlAcsSuite } from './support/saml-acs';
import {
  afterResponseIssuer,
  assertionOf,
  errorStatus,
  forgedFrom,
  idOf,
  signatureOf,
  withAttribute,
} from './support/saml-forgeries';
import { ResponseOptions } from './support/saml-idp';
import { ANY, samlReason } from './support/saml-reasons';
import { ssoRefused } from './support/sso';

/**
 * The message shapes of the SAML advisories of 2024–2026, each posted to the ACS (docs/sso.md, "Why a
 * SAML sign-in was refused"): signature wrapping, what a signature does not cover, what the signed
 * assertion says, the connection's keys. Each is refused with the check that caught it, and nothing
 * changed (no cookie, nobody made, joined or linked, no assertion kept, the attempt recorded as
 * refused). A forger holds a response the provider signed for Eve and wants the admin Boss.
 */
describe('POST /sso/saml/{id}/acs: hostile shapes', () => {
  const { t, factory, org, idp, create, activeConnection, post, responseXml, expectNothingChanged } = useSamlAcsSuite();

  /** A connection, the admin the forger wants, and Eve's response to a new start as `options` (given the admin) say. */
  const forging = async (
    options: Partial<ResponseOptions> | ((boss: string) => Partial<ResponseOptions>) = { sign: 'assertion' },
  ) => {
    const { id, domain } = await activeConnection();
    const eve = `eve-${Date.now()}@${domain}`;
    const boss = await factory.member(org.tenant.id, { role: 'admin', email: `boss-${Date.now()}@${domain}` });
    const respond = (more: Partial<ResponseOptions>) => responseXml(id, eve, more);
    const refused = (forged: string, reason: string) =>
      expectNothingChanged(id, [eve, boss.email], () => post(id, forged), reason);
    const first = typeof options === 'function' ? options(boss.email) : options;
    return { id, eve, boss: boss.email, xml: await respond(first), respond, refused };
  };

  describe('signature wrapping: the element signed is not the one read', () => {
    it('a signed assertion hidden in Extensions, a forged one of the same ID in its place', async () => {
      const { eve, boss, xml, refused } = await forging();
      const signed = assertionOf(xml);
      const wrapped = afterResponseIssuer(
        xml.replace(signed, forgedFrom(signed, eve, boss)),
        `<samlp:Extensions>${signed}</samlp:Extensions>`,
      );
      await refused(wrapped, samlReason('two elements have the ID {ID}', idOf(xml, 'Assertion')));
    });

    it('a signed assertion hidden in the ds:Object of the forged one’s copied Signature, one ID for both', async () => {
      const { eve, boss, xml, refused } = await forging();
      const signed = assertionOf(xml);
      const signature = signatureOf(xml).replace('</Signature>', `<Object>${signed}</Object></Signature>`);
      const forged = forgedFrom(signed, eve, boss).replace('</saml:Issuer>', `</saml:Issuer>${signature}`);
      await refused(xml.replace(signed, forged), samlReason('two elements have the ID {ID}', idOf(xml, 'Assertion')));
    });

    it('an unsigned assertion (another ID) before the signed one', async () => {
      const { eve, boss, xml, refused } = await forging();
      const signed = assertionOf(xml);
      const forged = forgedFrom(signed, eve, boss).replace(/ID="[^"]+"/, 'ID="_forged"');
      await refused(
        xml.replace(signed, forged + signed),
        samlReason('the response holds {n} assertions (exactly one is read)', '2'),
      );
    });

    it('a signed error response carrying a forged assertion beside a copied signature', async () => {
      const { eve, boss, xml: signedAssertion, respond, refused } = await forging();
      const errorResponse = await respond({
        sign: 'response',
        beforeSigning: (x) => errorStatus(x.replace(assertionOf(x), '')),
      });
      const forged = forgedFrom(assertionOf(signedAssertion), eve, boss).replace(
        '</saml:Issuer>',
        `</saml:Issuer>${signatureOf(signedAssertion)}`,
      );
      const carried = errorResponse.replace('</samlp:Response>', `${forged}</samlp:Response>`);
      await refused(carried, samlReason('a response whose status is not Success carries an assertion'));
    });

    it('a Signature outside the element its Reference covers (the assertion’s, moved to the Response)', async () => {
      const { xml, refused } = await forging();
      const moved = afterResponseIssuer(xml.replace(signatureOf(xml), ''), signatureOf(xml));
      await refused(
        moved,
        samlReason(
          'a Signature whose Reference ({URI}) is not the {Response or Assertion} it is in (#{ID})',
          `#${idOf(xml, 'Assertion')}`,
          'Response',
          idOf(xml, 'Response'),
        ),
      );
    });

    it('a Response whose own signature no longer verifies, around an assertion whose signature does', async () => {
      const { xml, refused } = await forging({ sign: 'both' });
      const edited = xml.replace(/(<samlp:Response [^>]*IssueInstant=")[^"]+/, '$12020-01-01T00:00:00.000Z');
      await refused(edited, samlReason('the signature does not verify (the signed content was changed)'));
    });

    it('two SignedInfo, the second over the forged content', async () => {
      const { xml, refused } = await forging();
      const twice = xml.replace(/<SignedInfo>[\s\S]*?<\/SignedInfo>/, (info) => info + info);
      await refused(twice, samlReason('a Signature with {n} SignedInfo (exactly one is read)', '2'));
    });

    it('two References in one SignedInfo', async () => {
      const { xml, refused } = await forging();
      const twice = xml.replace(/<Reference [\s\S]*?<\/Reference>/, (reference) => reference + reference);
      await refused(twice, samlReason('a Signature with {n} References (exactly one is read)', '2'));
    });

    it('two elements with one ID: a decoy carrying the signed assertion’s', async () => {
      const { xml, refused } = await forging();
      const decoy = `<samlp:Extensions><x:Decoy xmlns:x="urn:decoy" ID="${idOf(xml, 'Assertion')}"/></samlp:Extensions>`;
      await refused(
        afterResponseIssuer(xml, decoy),
        samlReason('two elements have the ID {ID}', idOf(xml, 'Assertion')),
      );
    });

    it('an ID in another namespace (which xml-crypto reads as an ID, node-saml does not)', async () => {
      const { xml, refused } = await forging();
      const decoy = `<samlp:Extensions><x:Decoy xmlns:x="urn:decoy" x:ID="${idOf(xml, 'Assertion')}"/></samlp:Extensions>`;
      await refused(
        afterResponseIssuer(xml, decoy),
        samlReason('an ID attribute in a namespace ({attribute}), which is refused', 'x:ID'),
      );
    });
  });

  describe('what a signature does not cover', () => {
    it('a comment inside DigestValue (the digest still reads the same)', async () => {
      const { xml, refused } = await forging();
      const commented = xml.replace(/<DigestValue>(.{8})/, '<DigestValue>$1<!-- x -->');
      await refused(
        commented,
        samlReason('the response holds a comment, which is refused (no signature covers a comment)'),
      );
    });

    it('a comment inside the NameID, the rest of the address after it', async () => {
      const { eve, xml, refused } = await forging();
      const commented = xml.replace(`>${eve}</saml:NameID>`, `>${eve}<!---->.evil.test</saml:NameID>`);
      await refused(
        commented,
        samlReason('the response holds a comment, which is refused (no signature covers a comment)'),
      );
    });

    it('#WithComments canonicalisation, signed so by the provider', async () => {
      const withComments = 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments';
      const { xml, refused } = await forging({ sign: 'assertion', canonicalization: withComments });
      await refused(
        xml,
        samlReason(
          'canonicalisation refused (exclusive or inclusive XML canonicalisation, without comments): {algorithm}',
          withComments,
        ),
      );
    });

    const INSTRUCTION = '<?x y?>';
    it.each([
      ['the NameID', (x: string) => x.replace('</saml:NameID>', `${INSTRUCTION}.evil.test</saml:NameID>`)],
      [
        'the NameID, named as an XML declaration',
        (x: string) => x.replace('</saml:NameID>', '<?xml version="1.0"?></saml:NameID>'),
      ],
      [
        'an attribute value',
        (x: string) => x.replace('</saml:AttributeValue>', `${INSTRUCTION}</saml:AttributeValue>`),
      ],
      [
        'the Issuer',
        (x: string) => x.replace('</saml:Issuer><saml:Subject>', `${INSTRUCTION}</saml:Issuer><saml:Subject>`),
      ],
    ])('a processing instruction inside %s, signed so by the provider', async (_, beforeSigning) => {
      const { xml, refused } = await forging({ sign: 'assertion', beforeSigning });
      await refused(xml, samlReason('the response holds a processing instruction, which is refused'));
    });

    it('a transform outside the allow-list (XSLT)', async () => {
      const xslt = 'http://www.w3.org/TR/1999/REC-xslt-19991116';
      const { xml, refused } = await forging();
      await refused(
        xml.replace('http://www.w3.org/2000/09/xmldsig#enveloped-signature', xslt),
        samlReason(
          'transform refused (enveloped-signature and canonicalisation without comments only): {algorithm}',
          xslt,
        ),
      );
    });

    const NOT_WELL_FORMED = "the response is not well-formed XML: {the parser's message}";
    it.each([
      ['text', () => 'forged', samlReason('the response has content after its root element')],
      ['a CDATA section (was a 500)', () => '<![CDATA[<saml:Assertion/>]]>', samlReason(NOT_WELL_FORMED, ANY)],
      ['a second root element', (xml: string) => assertionOf(xml), samlReason(NOT_WELL_FORMED, ANY)],
    ])('content after the root element: %s', async (_, trailing, reason) => {
      const { xml, refused } = await forging();
      await refused(xml + trailing(xml), reason);
    });

    it('elements nested 40,000 deep, which the libraries would walk by recursion (was a 500)', async () => {
      const { xml, refused } = await forging();
      const deep = afterResponseIssuer(xml, `${'<a>'.repeat(40_000)}${'</a>'.repeat(40_000)}`);
      await refused(deep, samlReason('the response nests elements more than {levels} levels deep', '50'));
    });

    it.each(['ISO-8859-1', 'UTF-16'])(
      'an encoding declaration (%s) that does not match the UTF-8 bytes',
      async (encoding) => {
        const { xml, refused } = await forging({
          sign: 'assertion',
          prolog: `<?xml version="1.0" encoding="${encoding}"?>`,
        });
        await refused(
          xml,
          samlReason('the response declares the encoding {encoding}, and only UTF-8 is read', encoding),
        );
      },
    );
  });

  describe('what the signed assertion says', () => {
    it('a Response Issuer that differs from the assertion’s', async () => {
      const { xml, refused } = await forging({
        sign: 'assertion',
        beforeSigning: (x) => x.replace(/(<saml:Issuer [^>]*>)[^<]+/, '$1https://evil.example/idp'),
      });
      const entityId = /<saml:Issuer>([^<]+)</.exec(xml)![1];
      await refused(
        xml,
        samlReason(
          "Response Issuer mismatch: expected {the provider's entity ID}, got {Issuer}",
          entityId,
          'https://evil.example/idp',
        ),
      );
    });

    it('two AudienceRestrictions of which one names this connection (SAML core 2.5.1.4: all must hold)', async () => {
      const other =
        '<saml:AudienceRestriction><saml:Audience>https://other.example/sp</saml:Audience></saml:AudienceRestriction>';
      const { id, xml, refused } = await forging({
        sign: 'assertion',
        beforeSigning: (x) => x.replace('</saml:AudienceRestriction>', `</saml:AudienceRestriction>${other}`),
      });
      await refused(
        xml,
        samlReason(
          'Audience mismatch: expected {entity ID} in every AudienceRestriction, got {Audiences}',
          samlEndpoints(id).entityId,
          'https://other.example/sp',
        ),
      );
    });

    it.each(['email', 'mail'])('duplicate e-mail attributes: a second, %s, naming the admin', async (name) => {
      const { xml, refused } = await forging((boss) => ({
        sign: 'assertion',
        beforeSigning: (x) => withAttribute(x, name, boss),
      }));
      await refused(xml, samlReason('the assertion gives {n} e-mail addresses (exactly one is read)', '2'));
    });
  });

  describe('the connection’s keys', () => {
    it('IdP metadata whose key has no `use` is a signing key (SAML metadata 2.4.1.1): the sign-in passes', async () => {
      const { id, domain } = await activeConnection({ metadataXml: idp().metadata(undefined, undefined, null) });
      const email = `nouse-${Date.now()}@${domain}`;
      const res = await post(id, await responseXml(id, email));
      expect(res.status).toBe(302);
      expect(await t.identity.findByEmail(email)).toMatchObject([{ tenantId: org.tenant.id }]);
      const encryption = await create({ metadataXml: idp().metadata(undefined, undefined, 'encryption') });
      expect([encryption.status, encryption.body]).toEqual([
        422,
        ssoRefused('SSO_METADATA_INVALID', 'the metadata has no signing certificate'),
      ]);
    });

    it('a connection left with no certificate fails closed, the provider’s signature notwithstanding', async () => {
      const { id, eve, boss, xml } = await forging({ sign: 'both' });
      const connections = t.dataSource.getRepository(SsoConnectionEntity);
      const { discovery } = await connections.findOneByOrFail({ id });
      await connections.update({ id }, { discovery: JSON.stringify({ ...JSON.parse(discovery), certificates: [] }) });
      await expectNothingChanged(
        id,
        [eve, boss],
        () => post(id, xml),
        samlReason('the connection has no certificate of the provider: refresh or replace its metadata (fail closed)'),
      );
    });
  });
});
