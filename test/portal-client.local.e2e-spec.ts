import createClient, { Client } from 'openapi-fetch';
import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { factories, sessionCookie } from './support/factories';
import { newInviter } from './support/inviting';
import { conformanceCheck, OpenApiDocument } from './support/openapi-conformance';
import type { paths } from './support/openapi-schema';
import { createTestApp, TestApp } from './support/test-app';

/** The body of a 2xx answer; anything else fails the test with the status and body. No cast: the types narrow. */
function dataOf<T>({ data, error, response }: { data?: T; error?: unknown; response: Response }): T {
  if (data === undefined) throw new Error(`${response.status} ${JSON.stringify(error)}`);
  return data;
}

/**
 * Issue 10 item 10: a portal's client, generated from the committed openapi.json by
 * openapi-typescript (`npm run openapi:types`, which `npm run typecheck` runs first), runs the
 * flows against the live server with openapi-fetch and no casts. `npm run typecheck` compiles this
 * file against the generated types: a document that forces a cast fails it. Every answer is also
 * checked against the served document: status, declared headers, JSON body.
 */
describe('A portal client generated from openapi.json (openapi-typescript, openapi-fetch)', () => {
  let t: TestApp;
  let client: Client<paths>;
  let mismatches: string[];

  beforeAll(async () => {
    // One invitation per owner per window: the second is the 429 with Retry-After.
    t = await createTestApp({ env: { INVITE_RATE_LIMIT: '1' } });
    await t.app.listen(0, '127.0.0.1');
    client = createClient<paths>({ baseUrl: await t.app.getUrl() });
    const check = conformanceCheck((await t.http.get('/api/openapi.json')).body as OpenApiDocument);
    client.use(check.middleware);
    mismatches = check.mismatches;
  });
  afterAll(() => t.close());
  afterEach(() => {
    expect(mismatches.splice(0)).toEqual([]);
  });

  it('a super-administrator creates and lists tenants, grants the role, pages super-admins, reads and deletes a user', async () => {
    const headers = { Cookie: await sessionCookie(t, await factories(t).superAdmin()) };

    const created = dataOf(
      await client.POST('/api/admin/tenants', { headers, body: { name: 'Acme', type: 'business' } }),
    );
    expect(created.tenant).toEqual({
      id: expect.any(String),
      name: 'Acme',
      type: 'business',
      status: 'pending_owner',
      createdAt: expect.any(String),
    });
    expect(await t.dataSource.getRepository(TenantEntity).findOneByOrFail({ id: created.tenant.id })).toMatchObject({
      name: 'Acme',
    });

    const { tenants } = dataOf(await client.GET('/api/admin/tenants', { headers }));
    expect(tenants.map((tenant) => tenant.id)).toContain(created.tenant.id);

    const user = await factories(t).user();
    const granted = dataOf(await client.POST('/api/admin/super-admins', { headers, body: { email: user.email } }));
    expect(granted.user).toMatchObject({ id: user.id, platformRole: 'super_admin' });

    const page = dataOf(await client.GET('/api/admin/super-admins', { headers, params: { query: { limit: 60 } } }));
    expect(page.total).toBe(page.users.length);
    expect(page.users.map((listed) => listed.id)).toContain(user.id);

    const read = dataOf(await client.GET('/api/admin/users/{id}', { headers, params: { path: { id: user.id } } }));
    expect(read.user.email).toBe(user.email);
    const deleted = dataOf(
      await client.DELETE('/api/admin/users/{id}', { headers, params: { path: { id: user.id } } }),
    );
    expect(deleted).toEqual({ success: true, message: 'User deleted' });
    expect(await t.identity.findById(user.id)).toBeNull();
  });

  it('an owner invites, the invitee validates and accepts the public link, and the owner removes a member', async () => {
    const owner = await newInviter(t);
    const headers = { Cookie: owner.cookie };

    const { invitation } = dataOf(
      await client.POST('/api/org/invite', { headers, body: { email: 'new.member@example.com', role: 'member' } }),
    );
    const token = { params: { path: { token: invitation.id } } };
    const valid = dataOf(await client.GET('/api/invitations/{token}', token));
    expect(valid).toMatchObject({ valid: true, email: 'new.member@example.com', tenantName: 'Acme', role: 'member' });
    const accepted = dataOf(await client.POST('/api/invitations/{token}', token));
    expect(accepted).toEqual({ success: true, tenantId: owner.tenant.id, role: 'member' });
    expect((await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: invitation.id })).status).toBe(
      'accepted',
    );

    const again = await client.POST('/api/invitations/{token}', token);
    expect(again.response.status).toBe(400);
    expect(again.error).toEqual({ success: false, error: 'ALREADY_USED' });

    const member = await factories(t).member(owner.tenant.id, { role: 'member' });
    const removed = dataOf(
      await client.DELETE('/api/org/users/{id}', { headers, params: { path: { id: member.id } } }),
    );
    expect(removed).toEqual({ success: true });
  });

  it('refusals reach the client as their documented statuses, headers and bodies', async () => {
    const admin = { Cookie: await sessionCookie(t, await factories(t).superAdmin()) };
    const refusals = [
      [
        400,
        { error: 'Malformed JSON body' },
        await client.POST('/api/admin/tenants', {
          headers: admin,
          body: { name: 'Acme', type: 'business' },
          bodySerializer: () => '{',
        }),
      ],
      [
        400,
        { error: 'Name is required' },
        await client.POST('/api/admin/tenants', { headers: admin, body: { name: '', type: 'business' } }),
      ],
      [401, { error: 'Unauthorized' }, await client.GET('/api/admin/tenants')],
      [
        413,
        { error: 'Request body too large' },
        await client.POST('/api/admin/super-admins', { headers: admin, body: { email: 'x'.repeat(200_000) } }),
      ],
      [
        415,
        { error: 'Unsupported charset: JSON must be UTF-8' },
        await client.POST('/api/admin/super-admins', {
          headers: { ...admin, 'Content-Type': 'application/json; charset=latin1' },
          body: { email: 'a@example.com' },
        }),
      ],
      [
        404,
        { error: 'User not found' },
        await client.GET('/api/admin/users/{id}', { headers: admin, params: { path: { id: 'nobody' } } }),
      ],
      [
        404,
        { valid: false, error: 'INVALID' },
        await client.GET('/api/invitations/{token}', { params: { path: { token: 'unknown' } } }),
      ],
      [400, { success: false, error: 'INVALID' }, await client.POST('/api/invitations')],
    ] as const;
    for (const [status, body, answer] of refusals) {
      expect([answer.response.status, answer.error]).toEqual([status, body]);
    }

    const owner = await newInviter(t);
    const invite = () =>
      client.POST('/api/org/invite', {
        headers: { Cookie: owner.cookie },
        body: { email: 'someone@example.com', role: 'admin' },
      });
    expect((await invite()).response.status).toBe(200);
    const limited = await invite();
    expect([limited.response.status, limited.error]).toEqual([
      429,
      { error: 'Too many invitations. Please try again later.' },
    ]);
    expect(Number(limited.response.headers.get('Retry-After'))).toBeGreaterThan(0);
  });
});
