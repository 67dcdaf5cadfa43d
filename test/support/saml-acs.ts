import { AuditEventEntity, SsoAssertionEntity, SsoIdentityEntity } from '../../src/database/entities';
import { useDomainsSuite } from './domains';
import { ResponseOptions, TestSamlIdp } from './saml-idp';
import { Answer, Context } from './saml-reasons';
import { SSO_BASE, SSO_PORTAL, ssoRecords } from './sso';

/** A SAML connection's service-provider side, as the connection shows it. */
export const samlEndpoints = (id: string) => ({
  entityId: `${SSO_BASE}/sso/saml/${id}/metadata`,
  acsUrl: `${SSO_BASE}/sso/saml/${id}/acs`,
  metadataUrl: `${SSO_BASE}/sso/saml/${id}/metadata`,
});

/** How the ACS refuses: its status and code, and whether the assertion's ID was remembered (the replay check passed). */
interface Refusal {
  status?: number;
  code?: string;
  remembered?: boolean;
}

/**
 * The SAML suites' organisation (useDomainsSuite with PUBLIC_BASE_URL and SSO_RETURN_ORIGINS set), an
 * Okta-shaped provider, and the ACS as the provider's page posts it: a connection made active, a start
 * whose AuthnRequest the response answers, and the check that a refused response changed nothing.
 */
export function useSamlAcsSuite() {
  const suite = useDomainsSuite({ PUBLIC_BASE_URL: SSO_BASE, SSO_RETURN_ORIGINS: SSO_PORTAL });
  const { t, org, verified } = suite;
  const records = ssoRecords(t, org);
  let idp: TestSamlIdp;
  beforeAll(async () => {
    idp = await TestSamlIdp.create('okta');
  });

  const create = (body: object = {}) =>
    t.http
      .post('/api/org/sso/connections')
      .set('Cookie', org.ownerCookie)
      .send({ type: 'saml', metadataXml: idp.metadata(), ...body });
  /** An active connection of the organisation to the provider, and a verified domain of it. */
  const activeConnection = async (body: object = {}) => {
    const domain = await verified();
    const created = await create(body);
    expect(created.status).toBe(201);
    const id = created.body.connection.id as string;
    const activated = await t.http
      .patch(`/api/org/sso/connections/${id}`)
      .set('Cookie', org.ownerCookie)
      .send({ status: 'active' });
    expect(activated.status).toBe(200);
    return { id, domain, ...samlEndpoints(id) };
  };
  /** The browser's start: the AuthnRequest's ID, which the response answers. */
  const start = async (id: string) => {
    const res = await t.http.get('/sso/start').query({ connection: id });
    expect(res.status).toBe(302);
    return TestSamlIdp.authnRequest(res.headers.location).id;
  };
  const post = (id: string, xml: string) =>
    t.http
      .post(`/sso/saml/${id}/acs`)
      .type('form')
      .send({ SAMLResponse: Buffer.from(xml).toString('base64') });
  /** The provider's response to a new start for the connection, as `options` shape it. */
  const responseXml = async (id: string, email: string, options: Partial<ResponseOptions> = {}) =>
    idp.responseXml({
      ...samlEndpoints(id),
      audience: samlEndpoints(id).entityId,
      email,
      inResponseTo: await start(id),
      ...options,
    });

  /** A new active connection and a person at its domain, as the reasons suite's cases build their response. */
  const signInContext = async (connection: object = {}): Promise<Context> => {
    const { id, domain, acsUrl, entityId } = await activeConnection(connection);
    const email = `kim-${Date.now()}@${domain}`;
    return {
      id,
      email,
      acsUrl,
      entityId,
      idpEntityId: idp.entityId,
      respond: (options) => responseXml(id, email, options),
      post: (xml) => post(id, xml),
      form: (fields) => t.http.post(`/sso/saml/${id}/acs`).type('form').send(fields),
    };
  };

  /** What a sign-in may change: the people of `emails`, the connection's links and assertions, the sign-in events. */
  const snapshot = async (id: string, emails: string[]) => ({
    people: await Promise.all(emails.map((email) => t.identity.findByEmail(email))),
    links: await t.dataSource.getRepository(SsoIdentityEntity).countBy({ connectionId: id }),
    assertions: await t.dataSource.getRepository(SsoAssertionEntity).countBy({ connectionId: id }),
    signedIn: await t.dataSource
      .getRepository(AuditEventEntity)
      .countBy([{ type: 'sso.login_succeeded' }, { type: 'member.joined' }]),
  });
  /**
   * The message posted to the ACS is refused (400 SSO_ASSERTION_INVALID unless `refusal` says otherwise)
   * with `reason`, an attempt and an event recording it, and nothing else changed: no cookie, nobody
   * made, joined or linked, no assertion kept (but for a refusal after the replay check, `remembered`).
   */
  const expectNothingChanged = async (
    id: string,
    emails: string[],
    send: () => Promise<Answer>,
    reason: unknown,
    { status = 400, code = 'SSO_ASSERTION_INVALID', remembered = false }: Refusal = {},
  ) => {
    const before = await snapshot(id, emails);
    await records.expectRefused(await send(), id, status, code, reason);
    expect(await snapshot(id, emails)).toEqual({ ...before, assertions: before.assertions + (remembered ? 1 : 0) });
  };

  return {
    ...suite,
    ...records,
    idp: () => idp,
    create,
    activeConnection,
    start,
    post,
    responseXml,
    signInContext,
    expectNothingChanged,
  };
}
