import { randomUUID } from 'node:crypto';
import { AuditEventEntity, OrgDomainEntity, SsoAttemptEntity, SsoConnectionEntity } from '../../src/database/entities';
import { useDomainsSuite } from './domains';
import { TestOidcProvider } from './oidc-provider';
import { Organisation } from './suites';
import { TestApp } from './test-app';

/** The service's address in the single sign-on suites (PUBLIC_BASE_URL), and a portal that SSO_RETURN_ORIGINS lists. */
export const SSO_BASE = 'http://tenants.test';
export const SSO_PORTAL = 'https://portal.example.com';

/** A session token's claims. */
export const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

/**
 * The organisation's groups mapped to roles, as an owner sets them: Engineering → admin, Hiring → the
 * custom role `recruiter` (made here).
 */
export async function mapGroupsToRoles(t: TestApp, ownerCookie: string): Promise<void> {
  const role = await t.http
    .post('/api/org/roles')
    .set('Cookie', ownerCookie)
    .send({ key: 'recruiter', name: 'Recruiter', permissions: ['invitations:create'] });
  expect(role.status).toBe(201);
  const mapped = await t.http
    .put('/api/org/scim/role-mapping')
    .set('Cookie', ownerCookie)
    .send({ Engineering: 'admin', Hiring: { roles: ['recruiter'] } });
  expect(mapped.status).toBe(200);
}

/** Single sign-on's refusal body: `{success:false, error, reason}`. */
export const ssoRefused = (error: string, reason: unknown = expect.any(String)) => ({ success: false, error, reason });

/** A sign-in's answer as supertest gives it. */
interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, unknown>;
}

/**
 * What the single sign-on suites read back (the connection's attempts, the organisation's events),
 * and the check that a callback or ACS was refused: the status and body, no cookie, an attempt and an
 * sso.login_failed event with the code.
 */
export function ssoRecords(t: TestApp, org: Organisation) {
  const attempts = (connectionId: string) =>
    t.dataSource.getRepository(SsoAttemptEntity).find({ where: { connectionId }, order: { at: 'DESC' } });
  const events = (type: string, tenantId = org.tenant.id) =>
    t.dataSource.getRepository(AuditEventEntity).findBy({ type, tenantId });
  const expectRefused = async (
    res: Answer,
    connectionId: string,
    status: number,
    error: string,
    reason: unknown = expect.any(String),
  ) => {
    expect([res.status, res.body]).toEqual([status, ssoRefused(error, reason)]);
    expect(res.headers['set-cookie']).toBeUndefined();
    const [attempt] = await attempts(connectionId);
    expect(attempt).toMatchObject({ result: error, detail: (res.body as { reason: string }).reason });
    const failed = await events('sso.login_failed');
    expect(failed.some((event) => JSON.parse(event.data).reason === error)).toBe(true);
  };
  return { attempts, events, expectRefused };
}

/** A domain the tenant holds verified, written as the verification leaves it (no DNS). */
export async function heldDomain(t: TestApp, tenantId: string, name: string): Promise<void> {
  const now = new Date();
  await t.dataSource.getRepository(OrgDomainEntity).insert({
    id: randomUUID(),
    tenantId,
    name,
    heldName: name,
    status: 'verified',
    joinMode: 'off',
    token: 'held-in-test',
    tokenIssuedAt: now,
    lastCheckAt: null,
    lastCheckResult: null,
    verifiedAt: now,
    graceEndsAt: null,
    nextCheckAt: null,
    createdAt: now,
  });
}

/**
 * A suite of single sign-on by OIDC against `provider` (test/support/oidc-provider.ts): the domains
 * suite with this service at SSO_BASE, and what its tests do as an owner and as a browser.
 */
export function useOidcSuite(provider: TestOidcProvider, env: Record<string, string> = {}) {
  const suite = useDomainsSuite({
    PUBLIC_BASE_URL: SSO_BASE,
    SSO_RETURN_ORIGINS: SSO_PORTAL,
    SSO_HTTP_TIMEOUT_MS: '2000',
    ...env,
  });
  const { t, org, verified } = suite;
  const connections = () => t.dataSource.getRepository(SsoConnectionEntity);
  const create = (body: object = {}, cookie = org.ownerCookie) =>
    t.http
      .post('/api/org/sso/connections')
      .set('Cookie', cookie)
      .send({
        type: 'oidc',
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        ...body,
      });
  const patch = (id: string, body: object, cookie = org.ownerCookie) =>
    t.http.patch(`/api/org/sso/connections/${id}`).set('Cookie', cookie).send(body);
  /** An active connection of the organisation, and a verified domain of it. */
  const activeConnection = async (body: object = {}) => {
    const domain = await verified();
    const created = await create(body);
    expect(created.status).toBe(201);
    expect((await patch(created.body.connection.id, { status: 'active' })).status).toBe(200);
    return { id: created.body.connection.id as string, domain };
  };
  /** The browser's way from the start to the callback: the provider signs `who` in. */
  const callbackFor = async (connectionId: string, who: { sub: string; email: string }, returnTo?: string) => {
    await provider.nextLogin(who);
    const started = await t.http.get('/sso/start').query({ connection: connectionId, ...(returnTo && { returnTo }) });
    expect(started.status).toBe(302);
    const callback = await provider.authorize(started.headers.location);
    expect(callback.origin + callback.pathname).toBe(`${SSO_BASE}/sso/oidc/${connectionId}/callback`);
    return callback;
  };
  const callback = (url: URL) => t.http.get(url.pathname + url.search);
  const signIn = async (connectionId: string, who: { sub: string; email: string }, returnTo?: string) =>
    callback(await callbackFor(connectionId, who, returnTo));
  return {
    ...suite,
    ...ssoRecords(t, org),
    connections,
    create,
    patch,
    activeConnection,
    callbackFor,
    callback,
    signIn,
  };
}
