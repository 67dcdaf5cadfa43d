import { TenantEntity } from '../../src/database/entities';
import { factories, sessionCookie } from './factories';
import { TestApp } from './test-app';
import { TestUser } from './test-identity';

/** A signed-in owner of a fresh tenant. */
export interface Inviter {
  tenant: TenantEntity;
  user: TestUser;
  cookie: string;
}

export async function newInviter(
  app: TestApp,
  tenant: Partial<TenantEntity> = {},
  owner: Partial<TestUser> = {},
): Promise<Inviter> {
  const factory = factories(app);
  const row = await factory.tenant({ name: 'Acme', ...tenant });
  const user = await factory.member(row.id, { role: 'owner', ...owner });
  return { tenant: row, user, cookie: await sessionCookie(app, user) };
}

/** POST /api/org/invite, with the time it took. */
export async function timedInvite(app: TestApp, cookie: string, email: string, role = 'member') {
  const started = Date.now();
  const res = await app.http.post('/api/org/invite').set('Cookie', cookie).send({ email, role });
  return { status: res.status, body: res.body, ms: Date.now() - started };
}
