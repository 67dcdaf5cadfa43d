import { AdminUpdateUserAttributesCommand, ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { spawnSync } from 'node:child_process';
import { tenantGroupName } from '../src/identity/cognito/cognito-groups';
import { emulatorClient } from './support/cognito-emulator';
import { CognitoTestIdentity } from './support/cognito-test-identity';
import { useOrganisationSuite } from './support/suites';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { TestUser } from './support/test-identity';

/**
 * Cognito mode (docs/organisation.md, "Cognito mode: the tenant groups"): a tenant's members are
 * listed from the pool group `tenant_<id>`, which the service keeps in step on every change it
 * makes, and which `cognito:sync-tenant-groups` back-fills for users given a tenant outside the
 * service.
 */
describe('tenant groups in the Cognito pool', () => {
  // The suite makes the database, whose URL the CLI needs. Hooks run in the order they are
  // registered: the database is made before the app starts on it, and dropped after it closes.
  let database: TestDatabase;
  let identity: CognitoTestIdentity;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  const { t, factory, org } = useOrganisationSuite({ app: () => ({ database }) });
  beforeAll(() => {
    identity = t.testIdentity as CognitoTestIdentity;
  });
  afterAll(() => database.drop());

  const shell = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  /** The back-fill as an operator runs it: `npm run -s cli -- cognito:sync-tenant-groups` with the server's configuration. */
  const syncGroups = () => {
    const env = { ...shell(), NODE_ENV: 'test', DATABASE_URL: database.url, ...identity.env };
    const result = spawnSync('npm', ['run', '-s', 'cli', '--', 'cognito:sync-tenant-groups'], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr.trim()).toBe('');
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout);
  };
  const groupMembers = async (tenantId: string) => {
    const client = emulatorClient(process.env.E2E_COGNITO_ENDPOINT!);
    const page = await client.send(
      new ListUsersInGroupCommand({ UserPoolId: identity.pool.userPoolId, GroupName: tenantGroupName(tenantId)! }),
    );
    return (page.Users ?? []).map((user) => user.Username).sort();
  };
  const listed = async () => {
    const res = await t.http.get('/api/org/members').set('Cookie', org.ownerCookie);
    expect(res.status).toBe(200);
    return res.body.members.map((member: { id: string }) => member.id);
  };

  /** A member given the tenant in the pool directly, not through the service: in no group. */
  const joinedOutside = async (role = 'member') => {
    const name = `outside-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const user: TestUser = {
      id: name,
      email: `${name}@example.com`,
      platformRole: null,
      userType: 'org',
      tenantId: org.tenant.id,
      role,
    };
    await identity.createUser(user, { withoutTenantGroup: true });
    return user;
  };

  it('a user given a tenant outside the service is listed once the back-fill has run; a second run changes nothing', async () => {
    const outsider = await joinedOutside();
    expect(await listed()).toEqual([org.owner.id]);
    expect(syncGroups()).toEqual({ joined: 1, left: 0 });
    // By e-mail: outside-… before user-….
    expect(await listed()).toEqual([outsider.id, org.owner.id]);
    expect(await groupMembers(org.tenant.id)).toEqual([org.owner.id, outsider.id].sort());
    expect(syncGroups()).toEqual({ joined: 0, left: 0 });
  });

  it("a group member whose custom:tenant_id names another tenant is not listed; the back-fill moves it to that one's group", async () => {
    const mover = await factory.member(org.tenant.id, { role: 'member' });
    const other = await factory.tenant();
    await emulatorClient(process.env.E2E_COGNITO_ENDPOINT!).send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: identity.pool.userPoolId,
        Username: mover.id,
        UserAttributes: [{ Name: 'custom:tenant_id', Value: other.id }],
      }),
    );
    expect(await listed()).toEqual([org.owner.id]);
    expect(syncGroups()).toEqual({ joined: 1, left: 1 });
    expect(await groupMembers(org.tenant.id)).toEqual([org.owner.id]);
    expect(await groupMembers(other.id)).toEqual([mover.id]);
  });

  it('PATCH /api/org/members/{id} puts a member who joined outside the service into the group, so the list shows them', async () => {
    const outsider = await joinedOutside();
    const res = await t.http
      .patch(`/api/org/members/${outsider.id}`)
      .set('Cookie', org.ownerCookie)
      .send({ role: 'admin' });
    expect(res.status).toBe(200);
    expect(await groupMembers(org.tenant.id)).toEqual([org.owner.id, outsider.id].sort());
    expect(await t.identity.findById(outsider.id)).toMatchObject({ tenantId: org.tenant.id, role: 'admin' });
    expect(await listed()).toContain(outsider.id);
  });

  it('DELETE /api/org/users/{id} takes the member out of the group as well as clearing the attributes', async () => {
    const member = await factory.member(org.tenant.id, { role: 'member' });
    expect(await groupMembers(org.tenant.id)).toEqual([org.owner.id, member.id].sort());
    const res = await t.http.delete(`/api/org/users/${member.id}`).set('Cookie', org.ownerCookie);
    expect(res.status).toBe(200);
    expect(await groupMembers(org.tenant.id)).toEqual([org.owner.id]);
    expect(await t.identity.findById(member.id)).toMatchObject({ tenantId: null, role: null });
  });
});
