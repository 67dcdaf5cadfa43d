import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** A command run without blocking the in-process server it may call; its exit code and output. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  // A portal developer's shell: none of the npm_* settings of the `npm test` running this suite.
  const shell = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const child = spawn(command, args, { cwd, env: { ...shell, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/** A portal's code using the installed package, as plain CommonJS, as an ES module and as TypeScript. */
const PORTAL_CJS = `
const { createTenantServiceClient } = require('@tenant-service/client');
const client = createTenantServiceClient({ baseUrl: process.env.SERVICE_URL });
client
  .POST('/api/org/invite', { headers: { Cookie: process.env.OWNER_COOKIE }, body: { email: process.env.EMAIL, role: 'member' } })
  .then(({ data, response }) => console.log(JSON.stringify({ status: response.status, data })));
`;
const PORTAL_MJS = `
import { createTenantServiceClient } from '@tenant-service/client';
const client = createTenantServiceClient({ baseUrl: process.env.SERVICE_URL });
const { data, response } = await client.GET('/api/org/members', { headers: { Cookie: process.env.OWNER_COOKIE } });
console.log(JSON.stringify({ status: response.status, data }));
`;
const PORTAL_TS = `
import { createTenantServiceClient } from '@tenant-service/client';
const client = createTenantServiceClient({ baseUrl: 'http://localhost:3000' });
export async function invite(cookie: string): Promise<string | undefined> {
  const { data } = await client.POST('/api/org/invite', { headers: { Cookie: cookie }, body: { email: 'a@example.com', role: 'admin' } });
  // @ts-expect-error: the declarations are live: 'king' is no role (an untyped client would let it through, and this line fail)
  await client.POST('/api/org/invite', { headers: { Cookie: cookie }, body: { email: 'a@example.com', role: 'king' } });
  return data?.invitation.email;
}
`;

describe('the typed client package (client/)', () => {
  it("client/schema.d.ts is openapi-typescript's output for openapi.json, the served document (`npm run client:generate`)", () => {
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

  describe('built to JavaScript with declarations (npm run client:build, run by prepare), installed as docs/client.md says', () => {
    let t: TestApp;
    let portal: string;
    beforeAll(async () => {
      const build = await run('npm', ['run', 'client:build'], ROOT);
      if (build.code !== 0) throw new Error(`npm run client:build: ${build.stdout}${build.stderr}`);
      portal = mkdtempSync(join(tmpdir(), 'portal-'));
      writeFileSync(join(portal, 'package.json'), JSON.stringify({ name: 'portal', private: true, version: '1.0.0' }));
      // As docs/client.md, with the peer openapi-fetch found beside the checkout's package: no registry.
      const flags = ['--offline', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=error'];
      const install = await run('npm', ['install', ...flags, join(ROOT, 'client')], portal);
      if (install.code !== 0) throw new Error(`npm install: ${install.stdout}${install.stderr}`);
      t = await createTestApp();
      await t.app.listen(0, '127.0.0.1');
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      if (portal) rmSync(portal, { recursive: true, force: true });
    });

    it('a CommonJS portal requires it and invites; an ES module portal imports it and lists the members', async () => {
      const owner = await newInviter(t);
      const email = `plain-js-${Date.now()}@example.com`;
      writeFileSync(join(portal, 'invite.js'), PORTAL_CJS);
      writeFileSync(join(portal, 'members.mjs'), PORTAL_MJS);
      const env = { SERVICE_URL: await t.app.getUrl(), OWNER_COOKIE: owner.cookie, EMAIL: email };

      const invited = await run('node', ['invite.js'], portal, env);
      expect(invited.stderr).toBe('');
      expect(JSON.parse(invited.stdout)).toEqual({
        status: 200,
        data: { success: true, invitation: expect.objectContaining({ email, role: 'member', status: 'pending' }) },
      });
      const listed = await run('node', ['members.mjs'], portal, env);
      expect(listed.stderr).toBe('');
      expect(JSON.parse(listed.stdout)).toMatchObject({ status: 200, data: { members: expect.any(Array) } });
    }, 60_000);

    it('a TypeScript portal compiles against its declarations (client/dist/index.d.ts) with plain tsc', async () => {
      writeFileSync(join(portal, 'portal.ts'), PORTAL_TS);
      const compilerOptions = {
        strict: true,
        noEmit: true,
        module: 'commonjs',
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        types: [],
      };
      writeFileSync(join(portal, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['portal.ts'] }));
      const tsc = await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], portal);
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.code).toBe(0);
    }, 60_000);
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
