import {
  AdminCreateUserCommand,
  AdminInitiateAuthCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { randomBytes, randomUUID } from 'node:crypto';
import { OrgDomainEntity, ScimUserEntity } from '../src/database/entities';
import { JoiningService } from '../src/joining/joining.service';
import { emulatorClient, SeededPool, seedUserPool } from './support/cognito-emulator';
import { oktaUser, scimClient } from './support/scim';
import { PROVIDER_HOOK_TIMEOUT_MS, TestOidcProvider } from './support/oidc-provider';
import { useTestApp } from './support/suites';

const PASSWORD = `E2e-${randomBytes(9).toString('base64url')}-Aa1!`;
const BASE = 'http://tenants.test';

/**
 * SCIM on a user pool that signs in by e-mail (`UsernameAttributes: ["email"]`, Amplify's default):
 * the pool refuses a Username that is not the address and names its users itself. SCIM's create
 * gives it the address and keeps the name it returns as the person's id; the person then signs
 * in, and is a member. (The suites' own pool, with separate usernames, is every other suite's.)
 */
describe('SCIM on a user pool that signs in by e-mail', () => {
  let client: CognitoIdentityProviderClient;
  let pool: SeededPool;
  // PUBLIC_BASE_URL: single sign-on's sessions in cognito mode (docs/sso.md).
  const poolEnv = () => ({
    COGNITO_USER_POOL_ID: pool.userPoolId,
    COGNITO_CLIENT_ID: pool.clientId,
    PUBLIC_BASE_URL: BASE,
  });
  beforeAll(async () => {
    client = emulatorClient(process.env.E2E_COGNITO_ENDPOINT!);
    pool = await seedUserPool(client, 'super_admin', { signsInByEmail: true });
  });
  const { t, factory } = useTestApp(() => ({ env: poolEnv() }));

  /** A person of the pool, made as an operator makes one there (by address), with a password; their id token. */
  const signIn = async (email: string) => {
    await client.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: pool.userPoolId,
        Username: email,
        Password: PASSWORD,
        Permanent: true,
      }),
    );
    const auth = await client.send(
      new AdminInitiateAuthCommand({
        UserPoolId: pool.userPoolId,
        ClientId: pool.clientId,
        AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD },
      }),
    );
    return `${t.config.sessionCookieName}=${auth.AuthenticationResult!.IdToken!}`;
  };
  /** An account made in the pool as an operator makes one there: by its address, with these custom attributes. */
  const poolAccount = (email: string, custom: Record<string, string> = {}) =>
    client.send(
      new AdminCreateUserCommand({
        UserPoolId: pool.userPoolId,
        Username: email,
        MessageAction: 'SUPPRESS',
        UserAttributes: Object.entries({ email, email_verified: 'true', ...custom }).map(([Name, Value]) => ({
          Name,
          Value,
        })),
      }),
    );
  const ownerOf = async (tenantId: string) => {
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    await poolAccount(email, { 'custom:user_type': 'org', 'custom:tenant_id': tenantId, 'custom:role': 'owner' });
    return signIn(email);
  };

  /** A new active organisation and a SCIM client with a token of its owner's. */
  const scimOfNewTenant = async () => {
    const tenant = await factory.tenant({ status: 'active' });
    const ownerCookie = await ownerOf(tenant.id);
    const token = await t.http.post('/api/org/scim/tokens').set('Cookie', ownerCookie);
    return { tenant, scim: scimClient(t.http, token.body.token.secret) };
  };

  it('POST /scim/v2/Users makes the account by address, keeps the id the pool gave it; the person signs in, a member', async () => {
    const tenant = await factory.tenant({ status: 'active' });
    const ownerCookie = await ownerOf(tenant.id);
    const token = await t.http.post('/api/org/scim/tokens').set('Cookie', ownerCookie);
    expect(token.status).toBe(201);
    const scim = scimClient(t.http, token.body.token.secret);

    const email = `new-${randomBytes(4).toString('hex')}@example.com`;
    const created = await scim.post('/Users', oktaUser(email));
    expect(created.status).toBe(201);
    const resource = JSON.parse(created.text);
    const stored = await t.dataSource.getRepository(ScimUserEntity).findOneByOrFail({ id: resource.id });
    const account = await t.identity.findById(stored.userId);
    expect(account).toMatchObject({ email, tenantId: tenant.id, role: 'member' });
    // The pool's own name for the person (not an id of the service's), found by the address too.
    expect((await t.identity.findByEmail(email)).map((user) => user.id)).toEqual([stored.userId]);

    const me = await t.http.get('/api/me').set('Cookie', await signIn(email));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: { id: stored.userId, email },
      organisation: { id: tenant.id, role: 'member' },
    });
  });

  it('adopts an account the pool has already, and the address once more is 409 uniqueness', async () => {
    const { tenant, scim } = await scimOfNewTenant();
    const email = `known-${randomBytes(4).toString('hex')}@example.com`;
    await poolAccount(email);
    const [known] = await t.identity.findByEmail(email);
    const adopted = await scim.post('/Users', oktaUser(email));
    expect(adopted.status).toBe(201);
    const stored = await t.dataSource
      .getRepository(ScimUserEntity)
      .findOneByOrFail({ id: JSON.parse(adopted.text).id });
    expect(stored.userId).toBe(known.id);
    expect(await t.identity.findById(known.id)).toMatchObject({ tenantId: tenant.id, role: 'member' });
    const again = await scim.post('/Users', oktaUser(email, { userName: `other-${email}` }));
    expect(again.status).toBe(409);
  });

  it('a create whose join does not commit (lost to another organisation meanwhile): 409 uniqueness, and the account made for it is deleted', async () => {
    const { tenant, scim } = await scimOfNewTenant();
    const email = `raced-${randomBytes(4).toString('hex')}@example.com`;
    // The join's own judgement, as a parallel way into another organisation would make it.
    jest
      .spyOn(t.app.get(JoiningService), 'joinWithoutInvitation')
      .mockResolvedValueOnce({ joined: false, memberOf: 'another-organisation' });
    const refused = await scim.post('/Users', oktaUser(email));
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text)).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect(await t.identity.findByEmail(email)).toEqual([]);
    expect(await t.dataSource.getRepository(ScimUserEntity).countBy({ tenantId: tenant.id })).toBe(0);
  });

  describe('single sign-on’s first sign-in (jit)', () => {
    const provider = new TestOidcProvider();
    beforeAll(() => provider.start(), PROVIDER_HOOK_TIMEOUT_MS);
    afterAll(() => provider.stop());

    /** An active OIDC connection of a new organisation with a verified domain, and a callback for `email` there. */
    const connected = async () => {
      const tenant = await factory.tenant({ status: 'active' });
      const ownerCookie = await ownerOf(tenant.id);
      const domain = `sso-${randomBytes(4).toString('hex')}.test`;
      const now = new Date();
      await t.dataSource.getRepository(OrgDomainEntity).insert({
        id: randomUUID(),
        tenantId: tenant.id,
        name: domain,
        status: 'verified',
        joinMode: 'off',
        token: randomBytes(8).toString('hex'),
        tokenIssuedAt: now,
        lastCheckAt: now,
        lastCheckResult: 'found',
        verifiedAt: now,
        graceEndsAt: null,
        nextCheckAt: new Date(now.getTime() + 86_400_000),
        heldName: domain,
        createdAt: now,
      });
      const created = await t.http.post('/api/org/sso/connections').set('Cookie', ownerCookie).send({
        type: 'oidc',
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
      });
      expect(created.status).toBe(201);
      const { id } = created.body.connection;
      expect(
        (await t.http.patch(`/api/org/sso/connections/${id}`).set('Cookie', ownerCookie).send({ status: 'active' }))
          .status,
      ).toBe(200);

      const signIn = async (email: string) => {
        await provider.nextLogin({ sub: `subject-${email}`, email });
        const started = await t.http.get('/sso/start').query({ connection: id });
        const callback = await provider.authorize(started.headers.location);
        return t.http.get(callback.pathname + callback.search);
      };
      return { tenant, domain, signIn };
    };

    it('makes the account by address, keeps the id the pool gave it, joins it; the session names that id', async () => {
      const { tenant, domain, signIn } = await connected();
      const email = `jit-${randomBytes(4).toString('hex')}@${domain}`;
      const res = await signIn(email);
      expect(res.status).toBe(302);
      const [account] = await t.identity.findByEmail(email);
      expect(account).toMatchObject({ email, tenantId: tenant.id, role: 'member' });
      const [cookie] = res.headers['set-cookie'] as unknown as string[];
      const token = cookie.split(';')[0].slice(`${t.config.sessionCookieName}=`.length);
      expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).sub).toBe(account.id);
      const me = await t.http.get('/api/me').set('Cookie', cookie.split(';')[0]);
      expect(me.body).toMatchObject({ user: { id: account.id, email }, organisation: { id: tenant.id } });
    });

    it('a join that does not commit (lost to another organisation meanwhile): 409 MEMBER_OF_ANOTHER_ORGANISATION, and the account made for it is deleted', async () => {
      const { domain, signIn } = await connected();
      const email = `raced-${randomBytes(4).toString('hex')}@${domain}`;
      jest
        .spyOn(t.app.get(JoiningService), 'joinWithoutInvitation')
        .mockResolvedValueOnce({ joined: false, memberOf: 'another-organisation' });
      const res = await signIn(email);
      expect([res.status, res.body.error]).toEqual([409, 'MEMBER_OF_ANOTHER_ORGANISATION']);
      expect(await t.identity.findByEmail(email)).toEqual([]);
    });
  });
});
