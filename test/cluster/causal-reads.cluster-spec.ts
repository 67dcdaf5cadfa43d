/**
 * What one instance ends, the other refuses at the next request, each on its own Galera node: the
 * tenant status read and the session check are causal reads (docs/deploying.md, docs/sessions.md).
 */
import { SessionTokenIssuer } from '../../src/auth/session-token-issuer';
import { factories, sessionCookie } from '../support/factories';
import { newInviter, timedInvite } from '../support/inviting';
import { UNAUTHORIZED } from '../support/spec-bodies';
import { TestApp } from '../support/test-app';
import { ClusterFleet, startClusterFleet } from './cluster-fleet';

describe('two instances on two Galera nodes: causal reads', () => {
  let fleet: ClusterFleet;
  let apps: [TestApp, TestApp];

  beforeAll(async () => {
    fleet = await startClusterFleet();
    apps = fleet.apps;
  }, 120_000);
  afterAll(async () => {
    await fleet?.close();
  }, 60_000);

  describe('a suspension through one instance', () => {
    it('refuses the next org request through the other (403 Organisation is suspended)', async () => {
      const inviter = await newInviter(apps[1], { status: 'active' });
      expect((await timedInvite(apps[1], inviter.cookie, 'before-suspension@example.com')).status).toBe(200);
      const root = await factories(apps[0]).superAdmin();
      const suspended = await apps[0].http
        .post(`/api/admin/tenants/${inviter.tenant.id}/suspend`)
        .set('Cookie', await sessionCookie(apps[0], root))
        .send({ reason: 'cluster test' });
      expect(suspended.status).toBe(200);
      const refused = await timedInvite(apps[1], inviter.cookie, 'after-suspension@example.com');
      expect([refused.status, refused.body]).toEqual([403, { error: 'Organisation is suspended' }]);
    });
  });

  describe('POST /api/me/sign-out through one instance', () => {
    it("refuses the session's next org request through the other as no session (401), 20 times over", async () => {
      const inviter = await newInviter(apps[1], { status: 'active' });
      for (let i = 0; i < 20; i++) {
        const { token } = await apps[0].app.get(SessionTokenIssuer).issue(inviter.user, { kind: 'cli' });
        const cookie = `${apps[0].config.sessionCookieName}=${token}`;
        expect((await apps[1].http.get('/api/org/members').set('Cookie', cookie)).status).toBe(200);
        expect((await apps[0].http.post('/api/me/sign-out').set('Cookie', cookie)).status).toBe(204);
        const refused = await apps[1].http.get('/api/org/members').set('Cookie', cookie);
        expect([refused.status, refused.body]).toEqual([401, UNAUTHORIZED]);
      }
    });
  });

  describe('DELETE /api/me/sessions through one instance', () => {
    it('refuses an older token without sid through the other at once (401); a newer one passes', async () => {
      const inviter = await newInviter(apps[1], { status: 'active' });
      const older = await sessionCookie(apps[1], inviter.user);
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // "not before" is whole seconds, as iat
      expect((await apps[0].http.delete('/api/me/sessions').set('Cookie', older)).status).toBe(204);
      const refused = await apps[1].http.get('/api/org/members').set('Cookie', older);
      expect([refused.status, refused.body]).toEqual([401, UNAUTHORIZED]);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const newer = await sessionCookie(apps[1], inviter.user);
      expect((await apps[1].http.get('/api/org/members').set('Cookie', newer)).status).toBe(200);
    });
  });
});
