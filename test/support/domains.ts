import { AuditEventEntity, JoinRequestEntity, TenantEntity } from '../../src/database/entities';
import { sessionCookie } from './factories';
import { OrganisationSuite, useOrganisationSuite } from './suites';
import { TestDns } from './test-dns';
import { TestUser } from './test-identity';

/** The body of a domain refusal (docs/domains.md). */
export const refused = (error: string) => ({ success: false, error });

type VerificationBody = { domain: { verification: { recordName: string; recordValue: string } } };

/** What useDomainsSuite gives a suite: the organisation suite, its DNS server, and the domain routes. */
export type DomainsSuite = ReturnType<typeof useDomainsSuite>;

/**
 * useOrganisationSuite on an app whose resolver asks a DNS server on the loopback (started before the
 * app, stopped after it), with `env` added, the organisation made active before each test, and the
 * domain routes as the organisation's owner calls them:
 * `const { t, org, verified, person, joinOrg } = useDomainsSuite({ DOMAINS_PER_ORG: '3' });`.
 */
export function useDomainsSuite(env: Record<string, string> = {}) {
  const dns = new TestDns();
  // Before the app starts: it reads the server's address.
  beforeAll(() => dns.start());
  afterAll(() => dns.stop());
  const suite: OrganisationSuite = useOrganisationSuite({
    app: () => ({ env: { DNS_RESOLVER_SERVERS: dns.address, ...env } }),
  });
  const { t, factory, org } = suite;
  // Only an active organisation is joinable; a test may suspend it.
  beforeEach(async () => {
    await t.dataSource.getRepository(TenantEntity).update({ id: org.tenant.id }, { status: 'active' });
  });
  let seq = 0;
  const local = () => t.testIdentity.mode === 'local';
  /** A fresh domain name, unique across the suite. */
  const newName = () => `acme-${Date.now().toString(36)}-${seq++}.test`;
  const claim = (name: unknown, cookie = org.ownerCookie) =>
    t.http.post('/api/org/domains').set('Cookie', cookie).send({ domain: name });
  const verify = (name: string, cookie = org.ownerCookie) =>
    t.http.post(`/api/org/domains/${name}/verify`).set('Cookie', cookie);
  const publishFor = (body: VerificationBody) =>
    dns.publish(body.domain.verification.recordName, body.domain.verification.recordValue);
  /** A verified claim of the organisation (owner cookie) on a fresh name, with a join mode. */
  const verified = async (joinMode = 'off', cookie = org.ownerCookie) => {
    const name = newName();
    const added = await claim(name, cookie);
    expect(added.status).toBe(201);
    publishFor(added.body);
    expect((await verify(name, cookie)).body.domain.status).toBe('verified');
    if (joinMode !== 'off')
      expect((await t.http.patch(`/api/org/domains/${name}`).set('Cookie', cookie).send({ joinMode })).status).toBe(
        200,
      );
    return name;
  };
  /** A session whose e-mail is verified: the claim (local) or the pool's attribute (cognito). `'absent'`: no claim. */
  const verifiedCookie = async (user: TestUser, emailVerified: unknown = true) => {
    if (!local()) return sessionCookie(t, user);
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      token_use: 'id',
      iat: now,
      exp: now + 3600,
      sub: user.id,
      email: user.email,
      email_verified: emailVerified,
    };
    if (emailVerified === 'absent') delete (payload as Record<string, unknown>).email_verified;
    return `${t.config.sessionCookieName}=${t.testIdentity.signedPayload(payload)}`;
  };
  /** A person without an organisation whose address is at the domain, with a verified session. */
  const person = async (name: string) => {
    const user = await factory.user({ email: `p-${seq++}@${name}` });
    return { user, cookie: await verifiedCookie(user) };
  };
  const joinOrg = (tenantId: string, cookie?: string) => {
    const request = t.http.post(`/api/me/joinable-organisations/${tenantId}/join`);
    return cookie ? request.set('Cookie', cookie) : request;
  };
  /** What a join may change: the person's stored record, their requests, the organisation's audit trail. */
  const joinSnapshot = async (userId: string) => ({
    user: await t.identity.findById(userId),
    requests: await t.dataSource.getRepository(JoinRequestEntity).countBy({ userId }),
    events: await t.dataSource.getRepository(AuditEventEntity).countBy({ tenantId: org.tenant.id }),
  });
  /** The join is refused with this status and body, and changes nothing (joinSnapshot). */
  const expectJoinRefused = async (
    userId: string,
    cookie: string | undefined,
    tenantId: string,
    status: number,
    body: object,
  ) => {
    const before = await joinSnapshot(userId);
    const res = await joinOrg(tenantId, cookie);
    expect([res.status, res.body]).toEqual([status, body]);
    expect(await joinSnapshot(userId)).toEqual(before);
  };
  return {
    ...suite,
    dns,
    local,
    newName,
    claim,
    verify,
    publishFor,
    verified,
    verifiedCookie,
    person,
    joinOrg,
    expectJoinRefused,
  };
}
