import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { memoryDataSource, ssoSignInsStoreOn } from '../../../test/support/memory-data-source';
import { ResponseOptions, signingKey, SigningKey, TestSamlIdp } from '../../../test/support/saml-idp';
import { Clock } from '../../common/clock';
import { parseConfig } from '../../config/app-config';
import { SsoConnectionEntity } from '../../database/entities';
import { SsoRequestPurpose } from '../../database/entities/sso.entity';
import { SsoHttp } from '../sso-http';
import { CallbackVerdict } from '../sso-protocol';
import { SsoSignInsStore } from '../sso-sign-ins.store';
import { samlEndpointsOf } from '../sso-views';
import { SamlClient } from './saml-client';
import { readIdpMetadata } from './saml-metadata';
import { SamlSignIn } from './saml-sign-in';

const BASE = 'http://tenants.test';
const PORTAL = 'https://portal.example.com';
const config = parseConfig({ SSO_RETURN_ORIGINS: PORTAL });
const clock = new Clock();

describe('SamlSignIn: the assertion consumer service’s checks', () => {
  let dataSource: DataSource;
  let store: SsoSignInsStore;
  let adapter: SamlSignIn;
  let idp: TestSamlIdp;
  let foreignKey: SigningKey;

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    store = ssoSignInsStoreOn(dataSource);
    const client = new SamlClient(new SsoHttp(config), clock);
    adapter = new SamlSignIn(client, store, config, clock);
    idp = await TestSamlIdp.create('okta');
    foreignKey = await signingKey();
  });
  afterAll(() => dataSource.destroy());

  const connectionOf = (changes: Partial<SsoConnectionEntity> = {}) =>
    ({
      id: randomUUID(),
      tenantId: 'tenant-1',
      type: 'saml',
      discovery: JSON.stringify(readIdpMetadata(idp.metadata(), new Date())),
      wantAssertionsSigned: 1,
      allowIdpInitiated: 0,
      ...changes,
    }) as SsoConnectionEntity;

  /** A sign-in sent to the provider for `connection`: its AuthnRequest's ID. */
  async function pending(connection: SsoConnectionEntity, purpose: SsoRequestPurpose = 'sign_in', ttlMs = 600_000) {
    const { state } = adapter.newRequestSecrets();
    const now = new Date();
    await store.insertRequest({
      state,
      nonce: '',
      codeVerifier: '',
      connectionId: connection.id,
      returnTo: '/home',
      purpose,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
      usedAt: null,
    });
    return state;
  }

  /** The provider's response to `requestId` for `connection`, built and signed as `options` say. */
  const xmlFor = (
    connection: SsoConnectionEntity,
    requestId: string | null,
    options: Partial<ResponseOptions> = {},
  ) => {
    const { entityId, acsUrl } = samlEndpointsOf(BASE, connection.id);
    return idp.responseXml({ acsUrl, audience: entityId, email: 'Kim@Acme.test', inResponseTo: requestId, ...options });
  };
  const base64 = (xml: string) => Buffer.from(xml).toString('base64');
  const verify = (connection: SsoConnectionEntity, form: Record<string, unknown>) =>
    adapter.verify(connection, form, BASE);
  const refusal = (verdict: CallbackVerdict) => ('refused' in verdict ? verdict.refused : verdict);

  it('a valid response: the person (subject, e-mail in lower case as well as sent, groups) and the sign-in it answers', async () => {
    const connection = connectionOf();
    const requestId = await pending(connection);
    const form = { SAMLResponse: base64(xmlFor(connection, requestId, { groups: ['Engineering'] })) };
    expect(adapter.claimedRequest(form)).toBe(requestId);
    expect(await verify(connection, form)).toEqual({
      person: {
        connection,
        subject: 'Kim@Acme.test',
        email: 'kim@acme.test',
        sentEmail: 'Kim@Acme.test',
        groups: ['Engineering'],
        purpose: 'sign_in',
        returnTo: '/home',
      },
    });
  });

  const PERSISTENT = '<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">p-1</saml:NameID>';
  const ENCRYPTED = '<saml:EncryptedAssertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"/>';
  const early = { notBefore: new Date(Date.now() + 600_000), notOnOrAfter: new Date(Date.now() + 900_000) };
  const late = { notBefore: new Date(Date.now() - 3_600_000), notOnOrAfter: new Date(Date.now() - 600_000) };
  const twice = (xml: string) => xml.replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, (one) => one + one);
  type Respond = (options?: Partial<ResponseOptions>) => string;
  /** Each forged or broken response: what it is, its SAMLResponse field (from the XML `respond` builds), the check. */
  const refusals: [string, (respond: Respond) => string | undefined, RegExp][] = [
    ['no SAMLResponse', () => undefined, /^SAMLResponse missing$/],
    ['larger than 512 KB', () => 'A'.repeat(512 * 1024 + 1), /^SAMLResponse is larger than 512 KB$/],
    ['not base64', () => '<samlp:Response/>', /^SAMLResponse is not base64$/],
    ['a DTD', (respond) => base64(respond({ prolog: '<!DOCTYPE x [<!ENTITY e "x">]>' })), /holds a DTD/],
    ['a processing instruction', (respond) => base64(respond({ prolog: '<?evil x?>' })), /processing instruction/],
    ['not well-formed XML', () => base64('<Response ID="1" ID="2"/>'), /not well-formed XML/],
    ['not a Response', () => base64('<Response/>'), /^the message is not a SAML Response$/],
    ['a SHA-1 signature', (respond) => base64(respond({ algorithm: 'sha1' })), /^signature algorithm refused/],
    [
      'a SHA-1 digest under a SHA-256 signature',
      (respond) => base64(respond().replace('xmlenc#sha256', 'xmldsig#sha1')),
      /^digest algorithm refused/,
    ],
    [
      'an encrypted assertion',
      (respond) => base64(respond({ sign: 'none' }).replace('<saml:Assertion ', `${ENCRYPTED}<saml:Assertion `)),
      /^encrypted assertions are not supported/,
    ],
    ['a missing Destination', (respond) => base64(respond({ destination: null })), /^Destination missing$/],
    ['a wrong Destination', (respond) => base64(respond({ destination: 'https://evil.test/acs' })), /^Destination mis/],
    ['unsolicited, IdP-initiated off', (respond) => base64(respond({ inResponseTo: null })), /^an unsolicited/],
    [
      'an unknown InResponseTo',
      (respond) => base64(respond({ inResponseTo: '_unknown' })),
      /^InResponseTo _unknown is unknown$/,
    ],
    ['an unsigned response', (respond) => base64(respond({ sign: 'none' })), /^no signature$/],
    [
      'a signed response around an unsigned assertion',
      (respond) => base64(respond({ sign: 'response' })),
      /^the response is signed but the assertion is not \(wantAssertionsSigned\)$/,
    ],
    [
      'a key not the connection’s',
      (respond) => base64(respond({ key: foreignKey })),
      /^signed by a key that is not one of the connection's certificates \(fingerprint ([0-9A-F]{2}:){31}[0-9A-F]{2}\)$/,
    ],
    [
      'an assertion edited after it was signed',
      (respond) =>
        base64(respond({ sign: 'assertion' }).replace('Kim@Acme.test</saml:NameID>', 'Eve@Acme.test</saml:NameID>')),
      /^the signature does not verify \(the signed content was changed\)$/,
    ],
    ['two assertions', (respond) => base64(twice(respond({ sign: 'assertion' }))), /^two elements have the ID _a/],
    [
      'a wrong audience',
      (respond) => base64(respond({ audience: 'https://evil.test/sp' })),
      /^Audience mismatch: expected http:\/\/tenants.test\/sso\/saml\/[^ ]+ in every AudienceRestriction, got https:\/\/evil.test\/sp$/,
    ],
    ['expired beyond the skew', (respond) => base64(respond(late)), /^expired at [^ ]+Z \(now [^ ]+Z, skew 120 s\)$/],
    [
      'not yet valid beyond the skew',
      (respond) => base64(respond(early)),
      /^not valid before [^ ]+Z \(now [^ ]+Z, skew 120 s\)$/,
    ],
    [
      'a wrong Issuer of the response',
      (respond) => base64(respond({ issuer: 'http://www.okta.com/other' })),
      /^Response Issuer mismatch: expected http:\/\/www.okta.com\/exk\w+, got http:\/\/www.okta.com\/other$/,
    ],
    [
      'a wrong Issuer of the assertion',
      (respond) =>
        base64(
          respond({ beforeSigning: (xml) => xml.replace(/(<saml:Assertion[^>]*><saml:Issuer>)[^<]+/, '$1other') }),
        ),
      /^Issuer mismatch: expected http:\/\/www.okta.com\/exk\w+, got other$/,
    ],
    ['another Recipient', (respond) => base64(respond({ recipient: 'https://evil.test/acs' })), /^Recipient mismatch/],
    ['no NameID', (respond) => base64(respond({ nameIdXml: '' })), /^the assertion has no NameID$/],
    ['no NotOnOrAfter', (respond) => base64(respond({ notOnOrAfter: null })), /^the assertion has no NotOnOrAfter$/],
  ];

  it.each(refusals)('400 SSO_ASSERTION_INVALID: %s (nothing known of the person)', async (_, field, reason) => {
    const connection = connectionOf();
    const requestId = await pending(connection);
    const SAMLResponse = field((options) => xmlFor(connection, requestId, options));
    expect(refusal(await verify(connection, { SAMLResponse }))).toEqual({
      status: 400,
      code: 'SSO_ASSERTION_INVALID',
      reason: expect.stringMatching(reason),
      email: null,
      subject: null,
      test: false,
    });
  });

  it('a refusal of a test sign-in’s answer says it was a test, once the request it names was read', async () => {
    const connection = connectionOf();
    const requestId = await pending(connection, 'test');
    const SAMLResponse = base64(xmlFor(connection, requestId, { issuer: 'http://www.okta.com/other' }));
    expect(refusal(await verify(connection, { SAMLResponse }))).toMatchObject({
      reason: /^Response Issuer/,
      test: true,
    });
  });

  it('another connection’s request is unknown to this one', async () => {
    const [connection, other] = [connectionOf(), connectionOf()];
    const requestId = await pending(other);
    const SAMLResponse = base64(xmlFor(connection, requestId));
    expect(refusal(await verify(connection, { SAMLResponse }))).toMatchObject({
      code: 'SSO_ASSERTION_INVALID',
      reason: `InResponseTo ${requestId} is unknown`,
    });
  });

  it('400 SSO_IDP_ERROR: a response whose status is not Success, without an assertion', async () => {
    const connection = connectionOf();
    const requestId = await pending(connection);
    const xml = xmlFor(connection, requestId, { sign: 'none' })
      .replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, '')
      .replace(
        'status:Success"/>',
        'status:Responder"><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode>',
      );
    expect(refusal(await verify(connection, { SAMLResponse: base64(xml) }))).toMatchObject({
      status: 400,
      code: 'SSO_IDP_ERROR',
      reason: expect.stringContaining('Responder'),
    });
  });

  it('400 SSO_ASSERTION_INVALID: no e-mail, neither a NameID that is one nor an attribute', async () => {
    const connection = connectionOf();
    const requestId = await pending(connection);
    const SAMLResponse = base64(xmlFor(connection, requestId, { email: '', nameIdXml: PERSISTENT }));
    expect(refusal(await verify(connection, { SAMLResponse }))).toEqual({
      status: 400,
      code: 'SSO_ASSERTION_INVALID',
      reason: 'the assertion has no e-mail: a NameID in e-mail format or an email attribute',
      email: null,
      subject: 'p-1',
      test: false,
    });
  });

  it('409 SSO_REPLAYED: an assertion already used, the person known', async () => {
    const connection = connectionOf();
    const requestId = await pending(connection);
    const SAMLResponse = base64(xmlFor(connection, requestId, { assertionId: '_replayed' }));
    expect(await verify(connection, { SAMLResponse })).toHaveProperty('person');
    expect(refusal(await verify(connection, { SAMLResponse }))).toEqual({
      status: 409,
      code: 'SSO_REPLAYED',
      reason: 'assertion _replayed was used already',
      email: 'Kim@Acme.test',
      subject: 'Kim@Acme.test',
      test: false,
    });
  });

  it.each([
    ['already used', 600_000, 2],
    ['expired', -1_000, 1],
  ])('400 SSO_ASSERTION_INVALID: the request it answers %s', async (unusable, ttlMs, answers) => {
    const connection = connectionOf();
    const requestId = await pending(connection, 'sign_in', ttlMs);
    let verdict: CallbackVerdict | undefined;
    for (let answer = 0; answer < answers; answer++)
      verdict = await verify(connection, { SAMLResponse: base64(xmlFor(connection, requestId)) });
    expect(refusal(verdict!)).toMatchObject({
      code: 'SSO_ASSERTION_INVALID',
      reason: `InResponseTo ${requestId} ${unusable}`,
      email: 'Kim@Acme.test',
    });
  });

  describe('IdP-initiated (allowIdpInitiated)', () => {
    it('an unsolicited response is a sign-in that returns to its RelayState', async () => {
      const connection = connectionOf({ allowIdpInitiated: 1 });
      const SAMLResponse = base64(xmlFor(connection, null));
      expect(await verify(connection, { SAMLResponse, RelayState: `${PORTAL}/from-idp` })).toMatchObject({
        person: { purpose: 'sign_in', returnTo: `${PORTAL}/from-idp` },
      });
    });

    it('400 SSO_RETURN_REFUSED: a RelayState beyond the returnTo rule', async () => {
      const connection = connectionOf({ allowIdpInitiated: 1 });
      const SAMLResponse = base64(xmlFor(connection, null));
      expect(refusal(await verify(connection, { SAMLResponse, RelayState: '//evil.test' }))).toEqual({
        status: 400,
        code: 'SSO_RETURN_REFUSED',
        reason: 'returnTo must be a path on this service or an address on an origin of SSO_RETURN_ORIGINS',
        email: 'Kim@Acme.test',
        subject: 'Kim@Acme.test',
        test: false,
      });
    });
  });

  it('wantAssertionsSigned false: a signed response around an unsigned assertion passes', async () => {
    const connection = connectionOf({ wantAssertionsSigned: 0 });
    const requestId = await pending(connection);
    const SAMLResponse = base64(xmlFor(connection, requestId, { sign: 'response' }));
    expect(await verify(connection, { SAMLResponse })).toHaveProperty('person.email', 'kim@acme.test');
  });
});
