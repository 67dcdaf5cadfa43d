import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, refused, ROOT } from './support/server-process';
import { TEST_JWT_SECRET } from './support/test-app';

const READY_WITHIN_MS = 90_000; // a watch build of the whole project first
const STOPPED_WITHIN_MS = 10_000;
/** What the watch build reads; dist/ is written beside them. */
const CHECKOUT = [
  'package.json',
  '.npmrc',
  'nest-cli.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'ormconfig.ts',
  'src',
  'migrations',
  'client',
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether any process of the group still runs (the group's id is its leader's pid). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => Promise<boolean> | boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(200);
  }
  return condition();
}

const ready = async (port: number) => {
  try {
    return (
      (await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(1_000) })).status === 200
    );
  } catch {
    return false;
  }
};

/**
 * The build and `npm run start:dev` as a developer runs them, in a copy of the checkout: each
 * empties and rewrites dist/, which the other suites' servers run from.
 */
describe('building and developing, in a copy of the checkout', () => {
  let dir: string;
  let npm: ChildProcess | undefined;
  let output = '';
  // A developer's shell: none of the npm_* settings of the `npm test` running this suite.
  const shell = () =>
    Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|E2E_|TEST_|JEST_)/i.test(name)));

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'start-dev-'));
    for (const entry of CHECKOUT) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    rmSync(join(dir, 'client', 'dist'), { recursive: true, force: true }); // as in a fresh clone
  });
  afterAll(() => {
    if (npm?.pid && groupAlive(npm.pid)) process.kill(-npm.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('the prepare script that npm ci runs last builds dist/ and the typed client, and says that the install is done', () => {
    const result = spawnSync('npm', ['run', 'prepare'], { cwd: dir, env: shell(), encoding: 'utf8', timeout: 120_000 });
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n').at(-1)).toBe(
      'prepare: dist/ and client/dist/ built; the install is done. Next: npm start (serves on PORT, default 3000) or npm test',
    );
    expect(existsSync(join(dir, 'dist', 'src', 'main.js'))).toBe(true);
    for (const file of ['index.js', 'index.d.ts', 'schema.d.ts'])
      expect(existsSync(join(dir, 'client', 'dist', file))).toBe(true);
  }, 120_000);

  it(
    'npm run start:dev: SIGTERM to npm stops the app it started: the port is free within seconds, and nothing is left running',
    async () => {
      const port = await freePort();
      npm = spawn('npm', ['run', 'start:dev'], {
        cwd: dir,
        env: {
          ...shell(),
          NODE_ENV: 'test',
          PORT: String(port),
          DATABASE_URL: `sqlite:${join(dir, 'dev.sqlite')}`,
          AUTH_JWT_SECRET: TEST_JWT_SECRET,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so that the test can see whether anything npm started outlives it.
        detached: true,
      });
      npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => npm!.once('exit', (code) => resolve(code)));
      if (!(await until(() => ready(port), READY_WITHIN_MS)))
        throw new Error(`Not ready within ${READY_WITHIN_MS} ms:\n${output}`);

      npm.kill('SIGTERM'); // npm alone, as `kill <pid>` or a process manager stopping it does
      let timer: NodeJS.Timeout | undefined;
      const stillRunning = new Promise<string>(
        (resolve) => (timer = setTimeout(() => resolve('still running'), STOPPED_WITHIN_MS)),
      );
      expect(await Promise.race([exited, stillRunning])).toBe(0);
      clearTimeout(timer);
      expect(await until(() => refused(port), STOPPED_WITHIN_MS)).toBe(true);
      expect(await until(() => !groupAlive(npm!.pid!), STOPPED_WITHIN_MS)).toBe(true);
    },
    READY_WITHIN_MS + 3 * STOPPED_WITHIN_MS + 10_000,
  );
});
