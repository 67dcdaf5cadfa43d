import { randomUUID } from 'node:crypto';
import { runCli } from '../src/cli/cli';
import { CliInputError } from '../src/cli/local-users.service';
import { SsoConnectionEntity } from '../src/database/entities';
import { openSecretWith, sealSecret } from '../src/sso/sso-secrets';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

/** docs/sso.md, "Rotating the secrets key": `npm run -s cli -- sso:rotate-secrets`, in-process as main.ts runs it. */
describe('operator CLI: sso:rotate-secrets', () => {
  const [newKey, oldKey, lostKey] = [Buffer.alloc(32, 5), Buffer.alloc(32, 6), Buffer.alloc(32, 7)];
  let database: TestDatabase;
  let t: TestApp;
  const saved = { ...process.env };
  const connections = () => t.dataSource.getRepository(SsoConnectionEntity);
  /** An OIDC connection whose secret is sealed under `key`. */
  const connectionUnder = async (key: Buffer, type: 'oidc' | 'saml' = 'oidc') => {
    const id = randomUUID();
    const now = new Date();
    await connections().insert({
      id,
      tenantId: randomUUID(),
      type,
      name: 'Okta',
      status: 'active',
      jit: 1,
      defaultRole: 'member',
      allowIdpInitiated: 0,
      issuer: 'https://idp.acme.example',
      clientId: type === 'oidc' ? 'client' : '',
      clientSecret: type === 'oidc' ? sealSecret(key, id, `secret-of-${id}`) : '',
      scopes: 'openid email',
      tokenEndpointAuthMethod: 'client_secret_basic',
      discovery: '{}',
      metadataUrl: null,
      wantAssertionsSigned: 1,
      expiryWarnedFor: null,
      discoveredAt: now,
      activatedAt: now,
      primaryAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return id;
  };
  const keyOf = async (id: string) =>
    openSecretWith([newKey, oldKey], id, (await connections().findOneByOrFail({ id })).clientSecret);

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({ database });
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      SSO_SECRETS_KEY: `${newKey.toString('hex')},${oldKey.toString('hex')}`,
    });
  });
  afterAll(async () => {
    process.env = { ...saved };
    await t.close();
    await database.drop();
  });

  it('seals every secret an old key opens under the first, counts each kind, names the unreadable; a second run rewrites none', async () => {
    const [old, current, lost] = [
      await connectionUnder(oldKey),
      await connectionUnder(newKey),
      await connectionUnder(lostKey),
    ];
    await connectionUnder(newKey, 'saml');
    const lostBefore = (await connections().findOneByOrFail({ id: lost })).clientSecret;
    expect(JSON.parse(await runCli(['sso:rotate-secrets']))).toEqual({
      rewritten: 1,
      alreadyCurrent: 1,
      unreadable: 1,
      unreadableConnections: [lost],
    });
    expect(await keyOf(old)).toEqual({ secret: `secret-of-${old}`, key: 0 });
    expect(await keyOf(current)).toEqual({ secret: `secret-of-${current}`, key: 0 });
    expect((await connections().findOneByOrFail({ id: lost })).clientSecret).toBe(lostBefore);
    expect(JSON.parse(await runCli(['sso:rotate-secrets']))).toMatchObject({ rewritten: 0, alreadyCurrent: 2 });
  });

  it('under NODE_ENV=production without SSO_SECRETS_KEY: refused in one line', async () => {
    const { SSO_SECRETS_KEY: _, ...withoutKey } = process.env;
    process.env = { ...withoutKey, NODE_ENV: 'production', AUTH_JWT_SECRET: 'k'.repeat(32) };
    try {
      const failure = await runCli(['sso:rotate-secrets']).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CliInputError);
      expect((failure as Error).message).toBe('SSO_SECRETS_KEY is not set: there is no key to seal the secrets with');
    } finally {
      process.env = { ...saved, DATABASE_URL: database.url, AUTH_JWT_SECRET: TEST_JWT_SECRET };
    }
  });
});
