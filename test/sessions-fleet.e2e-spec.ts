import { SessionTokenIssuer } from '../src/auth/session-token-issuer';
import { factories, sessionCookie } from './support/factories';
import { useTwoInstances } from './support/suites';

/** The ten routes of the spec, as a caller with a session (or none) calls them. */
const SPEC_ROUTES: [string, string, object?][] = [
  ['get', '/api/admin/tenants'],
  ['post', '/api/admin/tenants', { name: 'Acme', type: 'organisation' }],
  ['get', '/api/admin/super-admins'],
  ['post', '/api/admin/super-admins', { email: 'x@example.com' }],
  ['get', '/api/admin/users/someone'],
  ['delete', '/api/admin/users/someone'],
  ['post', '/api/org/invite', { email: 'x@example.com', role: 'member' }],
  ['delete', '/api/org/users/someone'],
  ['get', '/api/invitations/no-such-token'],
  ['post', '/api/invitations/no-such-token'],
];

/**
 * Sessions across a fleet (docs/sessions.md): two instances on one database. A sign-out through one
 * refuses the token through the other at the next request, with the expired token's answer, byte for
 * byte, on every route of the spec.
 */
describe('sessions on two instances', () => {
  const fleet = useTwoInstances(() => ({ env: { PUBLIC_BASE_URL: 'http://tenants.test' } }));

  it('signed out through the first instance, the token is refused through the second at once, as an expired token is, on each spec route', async () => {
    const { first, second } = fleet;
    const people = factories(first);
    const tenant = await people.tenant();
    for (const role of ['owner', 'member']) {
      const user = await people.member(tenant.id, { role });
      const admin = await people.superAdmin();
      for (const person of [user, admin]) {
        const { token } = await first.app.get(SessionTokenIssuer).issue(person, { kind: 'sso', connectionId: 'none' });
        const cookie = `${first.config.sessionCookieName}=${token}`;
        expect((await second.http.get('/api/me').set('Cookie', cookie)).status).toBe(200);
        expect((await first.http.post('/api/me/sign-out').set('Cookie', cookie)).status).toBe(204);
        const expired = await sessionCookie(second, person, -60);
        for (const [method, path, body] of SPEC_ROUTES) {
          const send = (c: string) => {
            const request = (second.http as unknown as Record<string, (p: string) => import('supertest').Test>)
              [method](path)
              .set('Cookie', c);
            return body ? request.send(body) : request;
          };
          const [revoked, old] = [await send(cookie), await send(expired)];
          expect([path, revoked.status, revoked.text, revoked.headers['content-type']]).toEqual([
            path,
            old.status,
            old.text,
            old.headers['content-type'],
          ]);
        }
      }
    }
  });
});
