import { spawn, spawnSync } from 'node:child_process';
import { documentedFetch } from './support/documented-http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCommand, ROOT, ServerProcess, serviceEnv, startServerProcess } from './support/server-process';
import { TEST_JWT_SECRET } from './support/test-app';
import { createTestDatabase, e2eDatabase, TestDatabase } from './support/test-database';

const SUITE_DIR = join(ROOT, 'examples', 'qa-suite');
/** The tests of examples/qa-suite/invitations.test.js. */
const SUITE_TESTS = 7;
const KEY = 'qa-suite-example-key-0123456789';
/** The guide's command (the suite's default QA_SUPER_ADMIN_ID), once per database. */
const CREATE_SUPER_ADMIN = [
  ...['users:create', '--id', 'qa-super-admin', '--email', 'qa-super-admin@example.com'],
  ...['--platform-role', 'super_admin'],
];
const RUN_TIMEOUT_MS = 120_000;

/**
 * A QA team's shell, with `env`: none of the npm_* settings of the `npm test` running this suite,
 * nor its E2E_/TEST_/JEST_ ones, nor a DATABASE_URL or SERVICE_URL that `env` does not give.
 */
const shell = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const { DATABASE_URL: _database, SERVICE_URL: _url, ...inherited } = serviceEnv(env);
  return Object.fromEntries(Object.entries({ ...inherited, ...env }).filter(([name]) => !/^npm_/i.test(name)));
};

/** How a run ended: its exit code, Jest's counts, and its output when it failed (for the test's message). */
interface SuiteRun {
  code: number | null;
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  numTotalTests: number;
  output: string;
}

/** `npm test` in examples/qa-suite, as its README runs it, with Jest's results as JSON. */
async function runQaSuite(env: Record<string, string>): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'qa-suite-results-'));
  try {
    const results = join(dir, 'results.json');
    const child = spawn('npm', ['test', '--', '--ci', '--json', `--outputFile=${results}`], {
      cwd: SUITE_DIR,
      env: shell(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    const { success, numPassedTests, numFailedTests, numTotalTests } = JSON.parse(readFileSync(results, 'utf8'));
    return { code, success, numPassedTests, numFailedTests, numTotalTests, output: code === 0 ? '' : output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PASSED_ALL: SuiteRun = {
  code: 0,
  success: true,
  numPassedTests: SUITE_TESTS,
  numFailedTests: 0,
  numTotalTests: SUITE_TESTS,
  output: '',
};

describe("the repository's checks on examples/qa-suite, as its README says", () => {
  const tool = (name: string, ...args: string[]) =>
    spawnSync(join(ROOT, 'node_modules', '.bin', name), args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

  it("a QA engineer's new test file is left out of the format check (.prettierignore), so npm test does not fail on its style", () => {
    const info = tool('prettier', '--file-info', 'examples/qa-suite/my-new-feature.test.js');
    expect(JSON.parse(info.stdout)).toMatchObject({ ignored: true });
  });

  it("and is linted, with Jest's globals", () => {
    const config = tool('eslint', '--print-config', 'examples/qa-suite/my-new-feature.test.js');
    expect(JSON.parse(config.stdout).languageOptions.globals).toMatchObject({
      describe: false,
      it: false,
      expect: false,
    });
  });
});

describe('the starter QA suite (examples/qa-suite), as its README runs it', () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.kill();
    await database.drop();
  });

  it(
    'against the built service in test mode (node dist/src/main.js) on a fresh database, its ' +
      'super-admin made with the CLI: every test passes, and it leaves no tenant behind',
    async () => {
      server = await startServerProcess(
        {
          TEST_MODE: 'true',
          TEST_MODE_KEY: KEY,
          DATABASE_URL: database.url,
          AUTH_JWT_SECRET: TEST_JWT_SECRET,
          INVITE_RATE_LIMIT: '3',
        },
        { command: builtCommand(['node', 'dist/src/main.js']) },
      );
      const superAdmin = spawnSync('npm', ['run', '-s', 'cli', '--', ...CREATE_SUPER_ADMIN], {
        cwd: ROOT,
        env: shell({ DATABASE_URL: database.url }),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect([superAdmin.status, superAdmin.stderr]).toEqual([0, '']);

      expect(await runQaSuite({ SERVICE_URL: server.url, TEST_MODE_KEY: KEY })).toEqual(PASSED_ALL);
      const left = await documentedFetch(
        server.url,
        '/api/test/tenants?namePrefix=qa-run-',
        { method: 'DELETE', headers: { 'X-Test-Mode-Key': KEY } },
        { testMode: true },
      );
      expect([left.status, left.json]).toEqual([200, { removed: 0 }]);
    },
    RUN_TIMEOUT_MS + 60_000,
  );

  // In-process it makes its own SQLite database: once, in the SQLite project.
  if (e2eDatabase() === 'sqlite') {
    it(
      "in-process, through the built service's createApp(), without SERVICE_URL: every test passes",
      async () => {
        expect(await runQaSuite({})).toEqual(PASSED_ALL);
      },
      RUN_TIMEOUT_MS,
    );
  }
});
