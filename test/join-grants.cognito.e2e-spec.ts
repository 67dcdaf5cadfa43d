import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { decode } from 'jsonwebtoken';
import { InvitationEntity, MembershipGrantEntity } from '../src/database/entities';
import { CognitoIdentityStore } from '../src/identity/cognito/cognito-identity-store';
import { CognitoEmulator, EmulatorPlace, startCognitoEmulator } from './support/cognito-emulator';
import { CognitoTestIdentity } from './support/cognito-test-identity';
import { eventually } from './support/eventually';
import { factories, sessionCookie } from './support/factories';
import { freePort } from './support/server-process';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Cognito mode: the membership is written to the user pool after the join's transaction, and a
 * pool that fails then does not leave the accepted invitation without it. The suite runs its own
 * cognito-local, which it stops in the middle of joins and starts again with its pools.
 */
describe('joining while the user pool is down (cognito mode)', () => {
  jest.setTimeout(60_000);

  let place: EmulatorPlace;
  let emulator: CognitoEmulator;
  let t: TestApp;
  let factory: ReturnType<typeof factories>;
  let store: CognitoIdentityStore;

  beforeAll(async () => {
    place = { port: await freePort(), dir: mkdtempSync(joinPath(tmpdir(), 'cognito-local-restartable-')) };
    emulator = await startCognitoEmulator(place);
    // The app and its test identity use this emulator; the other suites keep the project's.
    const shared = process.env.E2E_COGNITO_ENDPOINT;
    process.env.E2E_COGNITO_ENDPOINT = emulator.endpoint;
    try {
      t = await createTestApp();
    } finally {
      process.env.E2E_COGNITO_ENDPOINT = shared;
    }
    factory = factories(t);
    store = t.identity as CognitoIdentityStore;
  });
  afterAll(async () => {
    await t?.close();
    await emulator?.stop();
    rmSync(place.dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    if (!(await reachable())) emulator = await startCognitoEmulator(place);
  });

  const reachable = () =>
    fetch(`${emulator.endpoint}/health`)
      .then((res) => res.ok)
      .catch(() => false);
  const join = async (token: string, cookie: string) =>
    t.http.post(`/api/invitations/${token}/join`).set('Cookie', cookie);
  const grants = () => t.dataSource.getRepository(MembershipGrantEntity);
  const statusOf = async (id: string) =>
    (await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id })).status;
  /** A user without an organisation, signed in while the pool is up, and an invitation of a tenant to their address. */
  const invitee = async (role = 'admin') => {
    const tenant = await factory.tenant({ name: 'Acme' });
    const user = await factory.user();
    const cookie = await sessionCookie(t, user);
    const invitation = await factory.invitation({ tenantId: tenant.id, email: user.email, role });
    return { tenant, user, cookie, invitation };
  };
  /** Once the pool is back: the grant is gone, the pool has the membership, and a new sign-in carries it. */
  const expectMembershipInPool = async (userId: string, tenantId: string, role: string) => {
    await eventually(async () => expect(await grants().count()).toBe(0), { timeoutMs: 15_000 });
    expect(await store.findById(userId)).toMatchObject({ userType: 'org', tenantId, role });
    expect((await store.listTenantMembers(tenantId, undefined, 10)).map((member) => member.id)).toContain(userId);
    const idToken = (await (t.testIdentity as CognitoTestIdentity).signIn(userId)).IdToken!;
    expect(decode(idToken)).toMatchObject({
      'custom:user_type': 'org',
      'custom:tenant_id': tenantId,
      'custom:role': role,
    });
    const members = await t.http.get('/api/org/members').set('Cookie', `${t.config.sessionCookieName}=${idToken}`);
    expect(members.status).toBe(200);
    expect(members.body.members).toContainEqual(expect.objectContaining({ id: userId, role }));
  };

  it('the pool stops after the commit, before the membership is written: 202 pending, retried until the pool is back', async () => {
    const { tenant, user, cookie, invitation } = await invitee();
    const grant = store.grantMembership.bind(store);
    jest.spyOn(store, 'grantMembership').mockImplementationOnce(async (...args) => {
      await emulator.stop();
      return grant(...args);
    });
    const res = await join(invitation.id, cookie);
    expect([res.status, res.body]).toEqual([
      202,
      { success: true, tenantId: tenant.id, role: 'admin', userId: user.id, pending: true },
    ]);
    expect(await statusOf(invitation.id)).toBe('accepted');
    // While the pool is down the grant waits, and is tried again.
    await eventually(async () =>
      expect(await grants().findOneByOrFail({ userId: user.id })).toMatchObject({
        tenantId: tenant.id,
        role: 'admin',
        attempts: expect.any(Number),
      }),
    );
    await eventually(
      async () => expect((await grants().findOneByOrFail({ userId: user.id })).attempts).toBeGreaterThanOrEqual(2),
      { timeoutMs: 10_000 },
    );
    expect((await grants().findOneByOrFail({ userId: user.id })).lastError).toBeTruthy();

    emulator = await startCognitoEmulator(place);
    await expectMembershipInPool(user.id, tenant.id, 'admin');
  });

  it('the pool stops half-way through the write (group joined, attributes not set): the retry completes it', async () => {
    const { tenant, user, cookie, invitation } = await invitee('member');
    const joinGroup = store.joinTenantGroup.bind(store);
    jest.spyOn(store, 'joinTenantGroup').mockImplementationOnce(async (...args) => {
      await joinGroup(...args);
      await emulator.stop();
    });
    const res = await join(invitation.id, cookie);
    expect([res.status, res.body.pending]).toEqual([202, true]);
    emulator = await startCognitoEmulator(place);
    await expectMembershipInPool(user.id, tenant.id, 'member');
  });

  it('the pool is down before the join: nothing is accepted, and the join works once it is back', async () => {
    const { tenant, user, cookie, invitation } = await invitee();
    await emulator.stop();
    const res = await join(invitation.id, cookie);
    expect([res.status, res.body]).toEqual([500, { success: false, error: 'INTERNAL_ERROR' }]);
    expect(await statusOf(invitation.id)).toBe('pending');
    expect(await grants().count()).toBe(0);

    emulator = await startCognitoEmulator(place);
    const again = await join(invitation.id, cookie);
    expect([again.status, again.body]).toEqual([
      200,
      { success: true, tenantId: tenant.id, role: 'admin', userId: user.id },
    ]);
    await expectMembershipInPool(user.id, tenant.id, 'admin');
  });

  it('joins of the user while their grant waits for the pool are judged against that grant', async () => {
    const first = await invitee();
    const grant = store.grantMembership.bind(store);
    jest.spyOn(store, 'grantMembership').mockImplementationOnce(async (...args) => {
      await emulator.stop();
      return grant(...args);
    });
    expect((await join(first.invitation.id, first.cookie)).status).toBe(202);
    // The grant's retry is held back: the pool is up again and does not have the membership yet.
    await eventually(async () =>
      expect((await grants().findOneByOrFail({ userId: first.user.id })).claimedBy).toBeNull(),
    );
    await grants().update({ userId: first.user.id }, { nextAttemptAt: new Date(Date.now() + 3_600_000) });
    emulator = await startCognitoEmulator(place);
    expect((await store.findById(first.user.id))?.tenantId).toBeNull();

    const elsewhere = await factory.tenant();
    const second = await factory.invitation({ tenantId: elsewhere.id, email: first.user.email, role: 'member' });
    const res = await join(second.id, first.cookie);
    expect([res.status, res.body]).toEqual([409, { success: false, error: 'MEMBER_OF_ANOTHER_ORGANISATION' }]);
    expect(await statusOf(second.id)).toBe('pending');
    // The invitation of the same tenant again: a member by the grant, still pending.
    const again = await factory.invitation({ tenantId: first.tenant.id, email: first.user.email, role: 'member' });
    const same = await join(again.id, first.cookie);
    expect([same.status, same.body]).toEqual([
      202,
      { success: true, tenantId: first.tenant.id, role: 'admin', userId: first.user.id, pending: true },
    ]);

    await grants().update({ userId: first.user.id }, { nextAttemptAt: new Date() });
    await expectMembershipInPool(first.user.id, first.tenant.id, 'admin');
  });
});
