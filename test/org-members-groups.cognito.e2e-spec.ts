import { AdminUpdateUserAttributesCommand, ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { spawnSync } from 'node:child_process';
import { TenantEntity } from '../src/database/entities';
import { tenantGroupName } from '../src/identity/cognito/cognito-identity-store';
import { factories, sessionCookie } from './support/factories';
import { emulatorClient } from './support/cognito-emulator';
import { CognitoTestIdentity } from './support/cognito-test-identity';
import { createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { TestUser } from './support/test-identity';

/**
 * Issue 12, Cognito mode: a tenant's members are listed from the pool group `tenant_<id>`, which the
 * service keeps in step on every change it makes, and which `cognito:sync-tenant-groups` back-fills
 * for users given a tenant outside the service.
 */
describe('tenant groups in the Cognito pool (issue 12)', () => {
  let database: TestDatabase;
  let t: TestApp;
  let identity: CognitoTestIdentity;
  let factory: ReturnType<typeof factories>;
  let tenant: TenantEntity;
  let owner: TestUser;
  let ownerCookie: string;

  const shell = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  /** The back-fill as an operator runs it: `npm run cli -- cognito:sync-tenant-groups` with the server's configuration. */
  const syncGroups = () => {
    const env = { ...shell(), NODE_ENV: 'test', DATABASE_URL: database.url, ...identity.env };
    const result = spawnSync('npm', ['run', 'cli', '--', 'cognito:sync-tenant-groups'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr.trim()).toBe('');
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout);
  };
  const groupMembers = async (tenantId: string) => {
    const client = emulatorClient(process.env.E2E_COGNITO_ENDPOINT!);
    const page = await client.send(new ListUsersInGroupCommand({ UserPoolId: identity.pool.userPoolId, GroupName: tenantGroupName(tenantId)! }));
    return (page.Users ?? []).map((user) => user.Username).sort();
  };
  const listed = async () => {
    const res = await t.http.get('/api/org/members').set('Cookie', ownerCookie);
    expect(res.status).toBe(200);
    return res.body.members.map((member: { id: string }) => member.id);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({ database });
    identity = t.testIdentity as CognitoTestIdentity;
    factory = factories(t);
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  beforeEach(async () => {
    tenant = await factory.tenant();
    owner = await factory.member(tenant.id, { role: 'owner' });
    ownerCookie = await sessionCookie(t, owner);
  });

  /** A member given the tenant in the pool directly, not through the service: in no group. */
  const joinedOutside = async (role = 'member') => {
    const name = `outside-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const user: TestUser = { id: name, email: `${name}@example.com`, platformRole: null, userType: 'org', tenantId: tenant.id, role };
    await identity.createUser(user, { withoutTenantGroup: true });
    return user;
  };

  it('a user given a tenant outside the service is listed once the back-fill has run; a second run changes nothing', async () => {
    const outsider = await joinedOutside();
    expect(await listed()).toEqual([owner.id]);
    expect(syncGroups()).toEqual({ joined: 1, left: 0 });
    // By e-mail: outside-… before user-….
    expect(await listed()).toEqual([outsider.id, owner.id]);
    expect(await groupMembers(tenant.id)).toEqual([owner.id, outsider.id].sort());
    expect(syncGroups()).toEqual({ joined: 0, left: 0 });
  });

  it('a group member whose custom:tenant_id now names another tenant is not listed, and the back-fill moves it to that tenant\'s group', async () => {
    const mover = await factory.member(tenant.id, { role: 'member' });
    const other = await factory.tenant();
    await emulatorClient(process.env.E2E_COGNITO_ENDPOINT!).send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: identity.pool.userPoolId,
        Username: mover.id,
        UserAttributes: [{ Name: 'custom:tenant_id', Value: other.id }],
      }),
    );
    expect(await listed()).toEqual([owner.id]);
    expect(syncGroups()).toEqual({ joined: 1, left: 1 });
    expect(await groupMembers(tenant.id)).toEqual([owner.id]);
    expect(await groupMembers(other.id)).toEqual([mover.id]);
  });

  it('PATCH /api/org/members/{id} puts a member who joined outside the service into the group, so the list shows them', async () => {
    const outsider = await joinedOutside();
    const res = await t.http.patch(`/api/org/members/${outsider.id}`).set('Cookie', ownerCookie).send({ role: 'admin' });
    expect(res.status).toBe(200);
    expect(await groupMembers(tenant.id)).toEqual([owner.id, outsider.id].sort());
    expect(await t.identity.findById(outsider.id)).toMatchObject({ tenantId: tenant.id, role: 'admin' });
    expect(await listed()).toContain(outsider.id);
  });

  it('DELETE /api/org/users/{id} takes the member out of the group as well as clearing the attributes', async () => {
    const member = await factory.member(tenant.id, { role: 'member' });
    expect(await groupMembers(tenant.id)).toEqual([owner.id, member.id].sort());
    const res = await t.http.delete(`/api/org/users/${member.id}`).set('Cookie', ownerCookie);
    expect(res.status).toBe(200);
    expect(await groupMembers(tenant.id)).toEqual([owner.id]);
    expect(await t.identity.findById(member.id)).toMatchObject({ tenantId: null, role: null });
  });
});
