import {
  AdminCreateUserCommand,
  AdminInitiateAuthCommand,
  AdminSetUserPasswordCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { createHmac, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { decode, sign, SignOptions } from 'jsonwebtoken';
import { emulatorClient, EMULATOR_SIGNING_KEY, seedUserPool } from './support/cognito-emulator';
import { CognitoTestIdentity } from './support/cognito-test-identity';
import { factories } from './support/factories';
import { FORBIDDEN, UNAUTHORIZED } from './support/spec-bodies';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { TestUser } from './support/test-identity';

const emulatorKey = EMULATOR_SIGNING_KEY;

/**
 * Sessions (docs/api.md) in cognito mode, against cognito-local: the pool's RS256 id tokens from a
 * real sign-in, read from SESSION_COOKIE_NAME or from Amplify's cookies, verified against the
 * pool's JWKS with issuer, audience, exp and token_use checked.
 */
describe('sessions (cognito mode)', () => {
  let t: TestApp;
  let cognito: CognitoTestIdentity;
  let superAdmin: TestUser;
  let owner: TestUser;
  let issuer: string;
  let clientId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SESSION_COOKIE_NAME: 'portal_session' } });
    cognito = t.testIdentity as CognitoTestIdentity;
    const factory = factories(t);
    superAdmin = await factory.superAdmin();
    owner = await factory.member('tenant-1', { role: 'owner' });
    issuer = `${cognito.endpoint}/${cognito.pool.userPoolId}`;
    clientId = cognito.pool.clientId;
  });
  afterAll(() => t.close());

  const tenants = (cookie: string) => t.http.get('/api/admin/tenants').set('Cookie', cookie);
  const expectNoSession = async (cookie: string) => {
    const res = await tenants(cookie);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  };
  const amplifyCookies = (username: string, idToken: string, client = clientId) => {
    const prefix = `CognitoIdentityServiceProvider.${client}`;
    return [`${prefix}.LastAuthUser=${username}`, `${prefix}.${username}.idToken=${idToken}`];
  };
  /** Claims as the emulator puts them in an id token of `user`. */
  const claimsOf = (user: TestUser, extra: object = {}) => ({
    sub: `sub-of-${user.id}`,
    'cognito:username': user.id,
    email: user.email,
    token_use: 'id',
    ...extra,
  });
  /** Signed with the emulator's own key; an option set to undefined leaves that claim out. */
  const signedByEmulator = (claims: object, options: SignOptions = {}) => {
    const merged: SignOptions = {
      algorithm: 'RS256',
      keyid: emulatorKey.jwk.kid,
      issuer,
      audience: clientId,
      expiresIn: 300,
      ...options,
    };
    return sign(
      claims,
      emulatorKey.pem,
      Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)),
    );
  };

  describe('accepted', () => {
    it("a real sign-in's id token has what the service expects: RS256, issuer <COGNITO_ENDPOINT>/<pool id>, audience, claims", async () => {
      const token = await cognito.sessionToken(owner);
      const { header, payload } = decode(token, { complete: true }) as {
        header: { alg: string };
        payload: Record<string, unknown>;
      };
      expect(header.alg).toBe('RS256');
      expect(payload).toMatchObject({
        iss: issuer,
        aud: clientId,
        token_use: 'id',
        'cognito:username': owner.id,
        email: owner.email,
        'custom:user_type': 'org',
        'custom:tenant_id': 'tenant-1',
        'custom:role': 'owner',
      });
    });

    it('from the SESSION_COOKIE_NAME cookie', async () => {
      const res = await tenants(`portal_session=${await cognito.sessionToken(superAdmin)}`);
      expect(res.status).toBe(200);
    });

    it("from Amplify's cookies: LastAuthUser names the user whose idToken is read", async () => {
      const { IdToken, AccessToken, RefreshToken } = await cognito.signIn(superAdmin.id);
      const prefix = `CognitoIdentityServiceProvider.${clientId}`;
      const res = await tenants(
        [
          ...amplifyCookies(superAdmin.id, IdToken!),
          `${prefix}.${superAdmin.id}.accessToken=${AccessToken}`,
          `${prefix}.${superAdmin.id}.refreshToken=${RefreshToken}`,
        ].join('; '),
      );
      expect(res.status).toBe(200);
    });

    it('the caller of the org routes is cognito:username, with the tenant claims of the token', async () => {
      const res = await t.http
        .delete(`/api/org/users/${owner.id}`)
        .set('Cookie', amplifyCookies(owner.id, await cognito.sessionToken(owner)).join('; '));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Cannot remove yourself' });
    });
  });

  describe('refused as no session', () => {
    it('Amplify cookies of another app client', async () => {
      await expectNoSession(
        amplifyCookies(superAdmin.id, await cognito.sessionToken(superAdmin), 'another-client').join('; '),
      );
    });

    it('an Amplify idToken cookie of a user other than LastAuthUser', async () => {
      const prefix = `CognitoIdentityServiceProvider.${clientId}`;
      await expectNoSession(
        [
          `${prefix}.LastAuthUser=${owner.id}`,
          `${prefix}.${superAdmin.id}.idToken=${await cognito.sessionToken(superAdmin)}`,
        ].join('; '),
      );
    });

    it('the access token of a real sign-in (token_use: access)', async () => {
      const { AccessToken } = await cognito.signIn(superAdmin.id);
      await expectNoSession(`portal_session=${AccessToken}`);
      await expectNoSession(amplifyCookies(superAdmin.id, AccessToken!).join('; '));
    });

    it('a real id token from another pool of the same emulator (same signing key, other issuer and audience)', async () => {
      const client = emulatorClient(cognito.endpoint);
      const other = await seedUserPool(client);
      await client.send(
        new AdminCreateUserCommand({
          UserPoolId: other.userPoolId,
          Username: superAdmin.id,
          UserAttributes: [{ Name: 'email', Value: superAdmin.email }],
          MessageAction: 'SUPPRESS',
        }),
      );
      await client.send(
        new AdminSetUserPasswordCommand({
          UserPoolId: other.userPoolId,
          Username: superAdmin.id,
          Password: 'Other-pool-1!',
          Permanent: true,
        }),
      );
      const signIn = await client.send(
        new AdminInitiateAuthCommand({
          UserPoolId: other.userPoolId,
          ClientId: other.clientId,
          AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: superAdmin.id, PASSWORD: 'Other-pool-1!' },
        }),
      );
      await expectNoSession(`portal_session=${signIn.AuthenticationResult!.IdToken}`);
    });

    it('a tampered real id token (payload changed after signing)', async () => {
      const [header, payload, signature] = (await cognito.sessionToken(owner)).split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, 'cognito:username': superAdmin.id })).toString(
        'base64url',
      );
      await expectNoSession(`portal_session=${header}.${forged}.${signature}`);
    });

    it('an expired token, signed with the emulator key itself', async () => {
      // Control: the same construction, not expired, is a session; so the expiry is what is refused.
      expect((await tenants(`portal_session=${signedByEmulator(claimsOf(superAdmin))}`)).status).toBe(200);
      const expired = signedByEmulator(claimsOf(superAdmin, { exp: Math.floor(Date.now() / 1000) - 10 }), {
        expiresIn: undefined,
      });
      await expectNoSession(`portal_session=${expired}`);
    });

    it.each([
      ['token_use: access', () => signedByEmulator(claimsOf(superAdmin, { token_use: 'access' }))],
      ['another audience', () => signedByEmulator(claimsOf(superAdmin), { audience: 'another-client' })],
      [
        'another issuer',
        () =>
          signedByEmulator(claimsOf(superAdmin), {
            issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_other',
          }),
      ],
    ])('a token signed with the emulator key but with %s', async (_, token) => {
      await expectNoSession(`portal_session=${token()}`);
    });

    it('a token with the right claims signed by another RSA key under the pool key id', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const token = sign(claimsOf(superAdmin), privateKey, {
        algorithm: 'RS256',
        keyid: emulatorKey.jwk.kid,
        issuer,
        audience: clientId,
        expiresIn: 300,
      });
      await expectNoSession(`portal_session=${token}`);
    });

    it('a token signed by an unknown key id (the JWKS is fetched again and does not have it)', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const token = sign(claimsOf(superAdmin), privateKey, {
        algorithm: 'RS256',
        keyid: 'rotated-in',
        issuer,
        audience: clientId,
        expiresIn: 300,
      });
      await expectNoSession(`portal_session=${token}`);
    });

    it('an HS256 token as local mode signs them', async () => {
      await expectNoSession(
        `portal_session=${sign(claimsOf(superAdmin), TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 300 })}`,
      );
    });

    it('an HS256 token keyed with the pool public key (algorithm confusion)', async () => {
      const jwks = (await (await fetch(`${issuer}/.well-known/jwks.json`)).json()) as {
        keys: import('node:crypto').JsonWebKey[];
      };
      const pem = createPublicKey({ key: jwks.keys[0], format: 'jwk' }).export({ format: 'pem', type: 'spki' });
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const header = encode({ alg: 'HS256', typ: 'JWT', kid: emulatorKey.jwk.kid });
      const payload = encode({
        ...claimsOf(superAdmin),
        iss: issuer,
        aud: clientId,
        exp: Math.floor(Date.now() / 1000) + 300,
      });
      const signature = createHmac('sha256', pem).update(`${header}.${payload}`).digest('base64url');
      await expectNoSession(`portal_session=${header}.${payload}.${signature}`);
    });

    it('no session on another admin route is 403 (spec section 5)', async () => {
      const res = await t.http.get('/api/admin/super-admins').set('Cookie', 'portal_session=garbage');
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });
  });
});
