import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenantServiceClient, TenantServiceClient } from '../client';
import { InvitationEntity } from '../src/database/entities';
import { factories, sessionCookie } from './support/factories';
import { newInviter } from './support/inviting';
import { ROOT } from './support/server-process';
import { createTestApp, TestApp } from './support/test-app';

/** The body of a 2xx answer; anything else fails the test with the status and body. No cast: the types narrow. */
function dataOf<T>({ data, error, response }: { data?: T; error?: unknown; response: Response }): T {
  if (data === undefined) throw new Error(`${response.status} ${JSON.stringify(error)}`);
  return data;
}

describe('the typed client package (client/)', () => {
  it('client/schema.d.ts is what openapi-typescript generates from openapi.json, which is the served document (`npm run client:generate` rewrites both)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-schema-'));
    try {
      const generated = join(dir, 'schema.d.ts');
      const result = spawnSync(
        join(ROOT, 'node_modules', '.bin', 'openapi-typescript'),
        ['openapi.json', '--output', generated],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(result.status).toBe(0);
      expect(readFileSync(join(ROOT, 'client', 'schema.d.ts'), 'utf8')).toBe(readFileSync(generated, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('a portal calls invite, join and the members list, typed end to end (docs/client.md)', () => {
    let t: TestApp;
    let client: TenantServiceClient;
    beforeAll(async () => {
      t = await createTestApp();
      await t.app.listen(0, '127.0.0.1');
      client = createTenantServiceClient({ baseUrl: await t.app.getUrl() });
    });
    afterAll(() => t.close());

    it('the owner invites, the invitee joins with the link token, and the owner sees them among the members', async () => {
      const owner = await newInviter(t);
      const invitee = await factories(t).user({ email: `typed-client-${Date.now()}@example.com` });

      const invited = await client.POST('/api/org/invite', {
        headers: { Cookie: owner.cookie },
        body: { email: invitee.email, role: 'admin' },
      });
      expect(dataOf(invited)).toMatchObject({ success: true });

      // The token is in the e-mail's link; here it is read where the service keeps it.
      const { id: token } = await t.dataSource
        .getRepository(InvitationEntity)
        .findOneByOrFail({ tenantId: owner.tenant.id, email: invitee.email });
      const joined = dataOf(
        await client.POST('/api/invitations/{token}/join', {
          headers: { Cookie: await sessionCookie(t, invitee) },
          params: { path: { token } },
        }),
      );
      expect(joined).toEqual({ success: true, tenantId: owner.tenant.id, role: 'admin', userId: invitee.id });

      const { members } = dataOf(
        await client.GET('/api/org/members', { headers: { Cookie: owner.cookie }, params: { query: { limit: 50 } } }),
      );
      expect(members.map((member) => [member.email, member.role])).toContainEqual([invitee.email, 'admin']);
    });
  });
});
