import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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

/** A portal's code using the installed package, as plain CommonJS and as an ES module. */
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
/**
 * The TypeScript versions a portal compiles the package with, installed side by side in the portal
 * from the registry under these names (npm aliases): `npm install -D typescript` gives the newest,
 * 7.x, whose `tsc` (bin/tsc) starts the native compiler of its platform package; 5.x is still common.
 */
const TYPESCRIPTS = [
  { major: 5, alias: 'ts5', version: '5.x' },
  { major: 7, alias: 'ts7', version: '7.x' },
] as const;

/** Beside docs/client.md's onboard.ts: the declarations are live, so a wrong role fails the compilation. */
const WRONG_ROLE_TS = `
import { createTenantServiceClient } from '@tenant-service/client';
const client = createTenantServiceClient({ baseUrl: 'http://localhost:3000' });
export async function inviteAKing(cookie: string): Promise<void> {
  await client.POST('/api/org/invite', { headers: { Cookie: cookie }, body: { email: 'a@example.com', role: 'king' } });
}
`;
/** Runs docs/client.md's onboard(), compiled, against the service. */
const RUN_ONBOARD_MJS = `
import { onboard } from './dist/onboard.js';
const { SERVICE_URL, OWNER_COOKIE, INVITEE_COOKIE, EMAIL } = process.env;
console.log(JSON.stringify(await onboard(SERVICE_URL, OWNER_COOKIE, INVITEE_COOKIE, EMAIL)));
`;

/** docs/client.md's fenced block of `language` that comes first after `marker` (a line of its text). */
function documented(language: 'json' | 'ts' | 'sh', marker: string): string {
  const text = readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8');
  const from = text.indexOf(marker);
  if (from < 0) throw new Error(`docs/client.md has no "${marker}"`);
  const block = new RegExp(`\`\`\`${language}\n([^]*?)\`\`\``).exec(text.slice(from));
  if (!block) throw new Error(`docs/client.md has no ${language} block after "${marker}"`);
  return block[1];
}

/** `npm pack` of a folder into `destination`, without its scripts (no registry); the tarball's path. */
async function pack(folder: string, destination: string): Promise<string> {
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', destination, folder], ROOT);
  if (packed.code !== 0) throw new Error(`npm pack ${folder}: ${packed.stdout}${packed.stderr}`);
  return join(destination, packed.stdout.trim().split('\n').pop()!);
}

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

  describe('built with declarations (npm run client:build), packed and installed in an empty portal as docs/client.md says', () => {
    let t: TestApp;
    let portal: string;
    let tarballs: string;
    beforeAll(async () => {
      const build = await run('npm', ['run', 'client:build'], ROOT);
      if (build.code !== 0) throw new Error(`npm run client:build: ${build.stdout}${build.stderr}`);
      portal = mkdtempSync(join(tmpdir(), 'portal-'));
      tarballs = mkdtempSync(join(tmpdir(), 'portal-tarballs-'));
      // docs/client.md's package.json, with TypeScript as a development dependency (`npm install -D
      // typescript`), here both versions, from the registry, installed by the one `npm install`.
      const documentedPackage = JSON.parse(documented('json', '`package.json`:')) as Record<string, unknown>;
      const devDependencies = Object.fromEntries(
        TYPESCRIPTS.map(({ major, alias }) => [alias, `npm:typescript@${major}`]),
      );
      writeFileSync(join(portal, 'package.json'), JSON.stringify({ ...documentedPackage, devDependencies }));
      // As docs/client.md: `npm pack` in client/, then the tarball and openapi-fetch, which here
      // comes packed from the checkout (with the one package it needs): the version the service is tested with.
      const packages = [
        await pack(join(ROOT, 'client'), tarballs),
        await pack(join(ROOT, 'node_modules', 'openapi-fetch'), tarballs),
        await pack(join(ROOT, 'node_modules', 'openapi-typescript-helpers'), tarballs),
      ];
      const install = await run('npm', ['install', '--no-audit', '--no-fund', ...packages], portal);
      if (install.code !== 0) throw new Error(`npm install: ${install.stdout}${install.stderr}`);
      t = await createTestApp();
      await t.app.listen(0, '127.0.0.1');
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      for (const dir of [portal, tarballs]) if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("loads openapi-fetch from the portal's node_modules, never from the checkout (where npm prune --omit=dev removes it)", async () => {
      expect(documented('sh', '## Installing it in a portal')).toMatch(/^\(cd "\$SERVICE\/client" && npm pack\) /m);
      const resolved = await run(
        'node',
        ['-p', "require.resolve('openapi-fetch', { paths: [require.resolve('@tenant-service/client')] })"],
        portal,
      );
      expect(resolved.stderr).toBe('');
      expect(realpathSync(resolved.stdout.trim())).toMatch(new RegExp(`^${realpathSync(portal)}/node_modules/`));
    });

    it('a CommonJS portal requires it and invites; an ES module portal imports it and lists the members', async () => {
      const owner = await newInviter(t);
      const email = `plain-js-${Date.now()}@example.com`;
      writeFileSync(join(portal, 'invite.cjs'), PORTAL_CJS);
      writeFileSync(join(portal, 'members.mjs'), PORTAL_MJS);
      const env = { SERVICE_URL: await t.app.getUrl(), OWNER_COOKIE: owner.cookie, EMAIL: email };

      const invited = await run('node', ['invite.cjs'], portal, env);
      expect(invited.stderr).toBe('');
      expect(JSON.parse(invited.stdout)).toEqual({
        status: 200,
        data: { success: true, invitation: expect.objectContaining({ email, role: 'member', status: 'pending' }) },
      });
      const listed = await run('node', ['members.mjs'], portal, env);
      expect(listed.stderr).toBe('');
      expect(JSON.parse(listed.stdout)).toMatchObject({ status: 200, data: { members: expect.any(Array) } });
    }, 60_000);

    /** The portal's `tsc` of that major version, with `args`: its exit code and output. */
    const tsc = (alias: string, ...args: string[]) =>
      run('node', [join('node_modules', alias, 'bin', 'tsc'), ...args], portal).then(({ code, stdout, stderr }) => ({
        code,
        output: stdout + stderr,
      }));

    it('docs/client.md names the TypeScript versions compiled here, and its tsconfig.json is strict without skipLibCheck', async () => {
      const text = readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8');
      for (const { major, alias } of TYPESCRIPTS) {
        expect((await tsc(alias, '--version')).output).toMatch(new RegExp(`^Version ${major}\\.`));
        expect(text).toContain(`TypeScript ${major}.x`);
      }
      const { compilerOptions } = JSON.parse(documented('json', '`tsconfig.json`:')) as {
        compilerOptions: Record<string, unknown>;
      };
      expect(compilerOptions).toMatchObject({ strict: true });
      expect(compilerOptions).not.toHaveProperty('skipLibCheck');
    });

    it.each(TYPESCRIPTS)(
      "docs/client.md's onboard.ts compiles on TypeScript $version with its tsconfig.json (strict, no skipLibCheck); a wrong role fails",
      async ({ alias }) => {
        writeFileSync(join(portal, 'tsconfig.json'), documented('json', '`tsconfig.json`:'));
        writeFileSync(join(portal, 'onboard.ts'), documented('ts', '## A portal invites'));
        expect(await tsc(alias, '-p', 'tsconfig.json')).toEqual({ code: 0, output: '' });

        // An untyped client (every type `any`) would compile this too.
        writeFileSync(join(portal, 'wrong-role.ts'), WRONG_ROLE_TS);
        try {
          const wrong = await tsc(alias, '-p', 'tsconfig.json', '--noEmit');
          expect(wrong.code).not.toBe(0);
          expect(wrong.output.trim().split('\n')).toEqual([
            expect.stringMatching(/^wrong-role\.ts\(5,\d+\): error TS2322: Type '"king"' is not assignable to type/),
          ]);
        } finally {
          rmSync(join(portal, 'wrong-role.ts'));
        }
      },
      60_000,
    );

    it("docs/client.md's onboard.ts, compiled by the newest TypeScript (`npx tsc`), runs against the service", async () => {
      writeFileSync(join(portal, 'tsconfig.json'), documented('json', '`tsconfig.json`:'));
      writeFileSync(join(portal, 'onboard.ts'), documented('ts', '## A portal invites'));
      expect(await tsc(TYPESCRIPTS[TYPESCRIPTS.length - 1].alias, '-p', 'tsconfig.json')).toEqual({
        code: 0,
        output: '',
      });

      const owner = await newInviter(t);
      const invitee = await factories(t).user({ email: `onboard-${Date.now()}@example.com` });
      writeFileSync(join(portal, 'run-onboard.mjs'), RUN_ONBOARD_MJS);
      const onboarded = await run('node', ['run-onboard.mjs'], portal, {
        SERVICE_URL: await t.app.getUrl(),
        OWNER_COOKIE: owner.cookie,
        INVITEE_COOKIE: await sessionCookie(t, invitee),
        EMAIL: invitee.email,
      });
      expect(onboarded.stderr).toBe('');
      const [joinedLine, membersLine] = onboarded.stdout.trim().split('\n');
      expect(joinedLine).toBe(`${owner.tenant.id} admin`);
      expect(JSON.parse(membersLine)).toContain(`${invitee.email} admin`);
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
