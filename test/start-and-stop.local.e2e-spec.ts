import { spawnSync } from 'node:child_process';
import { documentedFetch } from './support/documented-http';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import {
  builtCommand,
  freePort,
  refused,
  ROOT,
  ServerProcess,
  serviceEnv,
  startServerProcess,
} from './support/server-process';
import { MIGRATIONS } from '../migrations';
import { TEST_JWT_SECRET } from './support/test-app';
import { createTestDatabase, e2eDatabase, TestDatabase } from './support/test-database';

/** What the README's production path runs: the built service, started without npm in between. */
const PRODUCTION_COMMAND = ['node', 'dist/src/main.js'] as [string, ...string[]];
const NPM_START = ['npm', 'start'] as [string, ...string[]];
const BASE_ENV = { AUTH_JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info', SHUTDOWN_DRAIN_SECONDS: '0' };

interface LogLine {
  level: string;
  context?: string;
  msg: string;
}
const logLines = (output: string): LogLine[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

/** Runs the production command until it exits on its own (a failed start). */
function startToFailure(env: Record<string, string>) {
  const [program, ...args] = builtCommand(PRODUCTION_COMMAND);
  const result = spawnSync(program, args, {
    cwd: ROOT,
    env: serviceEnv({ ...BASE_ENV, ...env }),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starting, stopping and failing to start, as operators run it. */
describe('start and stop (the built service as a process)', () => {
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  const start = async (env: Record<string, string>, command: [string, ...string[]], detached = false) => {
    const server = await startServerProcess(
      { ...BASE_ENV, DATABASE_URL: database.url, ...env },
      { command: builtCommand(command), detached },
    );
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await database?.drop();
  });

  it('production: migration:run, then two npm start in one checkout; SIGTERM to npm or its group drains, exits 0; dist/ kept', async () => {
    const built = statSync(join(ROOT, 'dist', 'src', 'main.js')).mtimeMs;
    const migrate = () =>
      spawnSync('npm', ['run', '-s', 'migration:run'], {
        cwd: ROOT,
        env: serviceEnv({ DATABASE_URL: database.url, LOG_LEVEL: 'info' }),
        encoding: 'utf8',
        timeout: 60_000,
      });
    const first = migrate();
    expect(first.status).toBe(0);
    // One line per migration and a last line; the SQL only at LOG_LEVEL=debug.
    expect(first.stdout.trimEnd().split('\n')).toEqual([
      ...MIGRATIONS.map((migration) =>
        expect.stringMatching(new RegExp(`^Migration ${migration.name} applied \\(\\d+ ms\\)$`)),
      ),
      `${MIGRATIONS.length} migration(s) applied: the database is up to date`,
    ]);
    expect(first.stderr).toBe('');
    const again = migrate();
    expect([again.status, again.stdout, again.stderr]).toEqual([
      0,
      'No migrations pending: the database is up to date\n',
      '',
    ]);

    const env = { DB_MIGRATIONS_RUN: 'false' };
    const one = await start(env, NPM_START, true);
    const two = await start(env, NPM_START, true);
    // The second start left the first one's code alone: both serve, migrated, from the same dist/.
    for (const server of [one, two]) expect((await documentedFetch(server.url, '/health/ready')).status).toBe(200);
    expect(statSync(join(ROOT, 'dist', 'src', 'main.js')).mtimeMs).toBe(built);

    one.child.kill('SIGTERM'); // npm is the main process: it forwards the signal to the server
    process.kill(-two.child.pid!, 'SIGTERM'); // systemd's KillMode=control-group: npm and the server alike
    expect(await one.exited).toBe(0);
    expect(await two.exited).toBe(0);
    for (const server of [one, two]) {
      expect(server.child.signalCode).toBeNull();
      expect(await refused(server.port)).toBe(true); // no orphaned server left behind
      expect(
        logLines(server.output())
          .filter((line) => line.context === 'Shutdown')
          .map((line) => line.msg),
      ).toContain('Shut down cleanly');
    }
  }, 120_000);

  it('the production command: one configuration summary line at info, with what it saw of Redis, no secret, no wiring; SIGTERM drains and exits 0', async () => {
    const server = await start(
      { REDIS_URL: 'redis://:redis-password@127.0.0.1:1', SMTP_URL: 'smtp://mailer:smtp-password@127.0.0.1:1' },
      PRODUCTION_COMMAND,
    );
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const lines = logLines(server.output());
    const summary = lines.filter((line) => line.context === 'Bootstrap');
    expect(summary).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: expect.stringMatching(
          new RegExp(
            `^Listening on port ${server.port}; NODE_ENV test; database (sqlite|mysql at) [^;]+ ` +
              `\\((\\d+ migration\\(s\\) applied at start-up|migrations up to date)\\); ` +
              'identity store local \\(table users\\); Redis unreachable \\(127\\.0\\.0\\.1:1, db 0; key prefix tenant-service:; ' +
              "connect ECONNREFUSED 127\\.0\\.0\\.1:1; rate-limit counters in this instance's memory until it answers\\); " +
              "SMTP on \\(127\\.0\\.0\\.1:1\\); DNS resolvers the system's; public address [^;]+$",
          ),
        ),
      }),
    ]);
    expect(
      lines.filter((line) =>
        ['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication'].includes(
          line.context ?? '',
        ),
      ),
    ).toEqual([]);
    expect(server.output()).not.toMatch(/password|mailer/);
  }, 60_000);

  // What no database decides (settings, npm, the process): registered once, on the SQLite project.
  if (e2eDatabase() === 'sqlite') {
    it('production without SMTP_URL, SSO_SECRETS_KEY, PUBLIC_BASE_URL, a MySQL DATABASE_URL or REDIS_URL: it serves, a warn line names each setting', async () => {
      const server = await start({ NODE_ENV: 'production' }, PRODUCTION_COMMAND);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(logLines(server.output()).filter((line) => line.context === 'Config')).toEqual([
        expect.objectContaining({
          level: 'warn',
          msg: 'SSO_SECRETS_KEY is not set: single sign-on is off (its routes answer 503 SSO_NOT_CONFIGURED)',
        }),
        expect.objectContaining({
          level: 'warn',
          msg: expect.stringMatching(
            /^PUBLIC_BASE_URL is not set: NODE_ENV=production makes links from each request's Host/,
          ),
        }),
        expect.objectContaining({
          level: 'warn',
          msg: 'SMTP_URL is not set: invitation e-mails are written to the log (tokens masked), not sent',
        }),
        expect.objectContaining({
          level: 'warn',
          msg: expect.stringMatching(
            /^DATABASE_URL is not set to MySQL\/MariaDB: NODE_ENV=production on the SQLite file /,
          ),
        }),
        expect.objectContaining({
          level: 'warn',
          msg: expect.stringMatching(
            /^REDIS_URL is not set: NODE_ENV=production with rate-limit counters in this instance's memory/,
          ),
        }),
      ]);
    }, 60_000);

    it("an install whose build script fails says why, with the project's .npmrc", () => {
      // A package whose install script fails as a native build does, installed from disk (no registry)
      // with this project's .npmrc, in an operator's shell (none of the npm_* of the `npm test` running this).
      const dir = mkdtempSync(join(tmpdir(), 'npmrc-install-'));
      try {
        copyFileSync(join(ROOT, '.npmrc'), join(dir, '.npmrc'));
        mkdirSync(join(dir, 'native'));
        writeFileSync(
          join(dir, 'native', 'package.json'),
          JSON.stringify({
            name: 'native',
            version: '1.0.0',
            scripts: { install: 'echo compiling native; echo "gyp ERR! build error" >&2; exit 1' },
          }),
        );
        writeFileSync(
          join(dir, 'package.json'),
          JSON.stringify({
            name: 'app',
            version: '1.0.0',
            dependencies: { native: 'file:./native' },
            allowScripts: { native: true },
          }),
        );
        const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
        const install = spawnSync('npm', ['install', '--install-links', '--no-audit', '--no-fund'], {
          cwd: dir,
          env,
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(install.status).not.toBe(0);
        expect(install.stdout).toContain('compiling native');
        expect(install.stderr).toContain('gyp ERR! build error');
        expect(install.stderr).toContain('npm error'); // npm's own word too: .npmrc silences nothing
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  describe('a failed start is one plain line naming the problem, and exit code 1', () => {
    const oneLine = (stderr: string) => {
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      // eslint-disable-next-line no-control-regex -- the escape that starts a colour
      expect(stderr).not.toMatch(/\u001b\[|\n\s+at /); // no colours, no stack trace
    };

    // A MySQL URL with nothing behind it, whichever database the project runs on: once, on SQLite.
    if (e2eDatabase() === 'sqlite') {
      it('an unreachable database', async () => {
        const port = await freePort();
        const result = startToFailure({
          NODE_ENV: 'production',
          DATABASE_URL: `mysql://tenants:db-password@127.0.0.1:${port}/tenants`,
        });
        expect(result.status).toBe(1);
        expect(result.stderr.trim()).toBe(
          `Database unavailable (mysql at 127.0.0.1:${port}/tenants): connect ECONNREFUSED 127.0.0.1:${port}`,
        );
        oneLine(result.stderr);
        expect(result.stdout).toBe('');
      }, 40_000);
    }

    describe('a database that cannot be opened: where it is, why, and what to do', () => {
      let dir: string;
      beforeEach(() => {
        dir = mkdtempSync(join(tmpdir(), 'sqlite-start-'));
      });
      afterEach(() => rmSync(dir, { recursive: true, force: true }));

      const failedStart = (databaseUrl: string) => {
        const result = startToFailure({ NODE_ENV: 'production', DATABASE_URL: databaseUrl });
        expect(result.status).toBe(1);
        oneLine(result.stderr);
        expect(result.stdout).toBe('');
        return result.stderr.trim();
      };

      // SQLite's own refusals: registered on the SQLite project only.
      if (e2eDatabase() === 'sqlite') {
        it('a SQLite file whose directory cannot be made (a file is in the way)', () => {
          writeFileSync(join(dir, 'file'), '');
          const file = join(dir, 'file', 'db', 'tenants.sqlite');
          expect(failedStart(`sqlite:${file}`)).toBe(
            `Database unavailable (sqlite ${file}): ENOTDIR: not a directory, mkdir '${join(dir, 'file', 'db')}'; ` +
              'the SQLite file cannot be created or written there: set DATABASE_URL to ' +
              'sqlite:/path/to/file.sqlite in a directory this user may write',
          );
        }, 40_000);

        it('a file that is not a SQLite database', () => {
          const file = join(dir, 'tenants.sqlite');
          writeFileSync(file, 'not a database '.repeat(100));
          expect(failedStart(`sqlite:${file}`)).toBe(
            `Database unavailable (sqlite ${file}): file is not a database; the file is not a SQLite ` +
              `database: set DATABASE_URL to another file`,
          );
        }, 40_000);
      }

      // MariaDB's own refusals: registered on the MariaDB project only (the SQLite one has no server to refuse).
      if (e2eDatabase() === 'mariadb') {
        it('a MariaDB database that does not exist', () => {
          const url = new URL(database.url);
          url.pathname = '/test_missing_database';
          expect(failedStart(url.toString())).toBe(
            `Database unavailable (mysql at ${url.host}/test_missing_database): Unknown database 'test_missing_database'; ` +
              'create the database first (docs/deploying.md), or correct its name in DATABASE_URL',
          );
        }, 40_000);

        it('a MariaDB password that is wrong', () => {
          const url = new URL(database.url);
          url.password = 'wrong-password';
          const line = failedStart(url.toString());
          expect(line).toMatch(
            new RegExp(
              `^Database unavailable \\(mysql at ${url.host}${url.pathname}\\): Access denied for user ` +
                `.*; correct the user and password in DATABASE_URL$`,
            ),
          );
          expect(line).not.toContain('wrong-password');
        }, 40_000);
      }
    });

    // Refused before any database is opened: once, on SQLite.
    if (e2eDatabase() === 'sqlite') {
      it('a port already in use', async () => {
        const holder: Server = createServer();
        const port = await new Promise<number>((resolve) =>
          holder.listen(0, () => resolve((holder.address() as { port: number }).port)),
        );
        try {
          const result = startToFailure({ NODE_ENV: 'production', DATABASE_URL: database.url, PORT: String(port) });
          expect(result.status).toBe(1);
          expect(result.stderr.trim()).toBe(
            `Port ${port} is already in use: stop the process that holds it or set PORT`,
          );
          oneLine(result.stderr);
        } finally {
          holder.close();
        }
      }, 40_000);

      it.each(['Production', 'prod'])(
        'a misspelt NODE_ENV (%s), even without AUTH_JWT_SECRET',
        (nodeEnv) => {
          const result = startToFailure({ NODE_ENV: nodeEnv, DATABASE_URL: database.url, AUTH_JWT_SECRET: '' });
          expect(result.status).toBe(1);
          expect(result.stderr).toBe(
            `Invalid configuration: NODE_ENV must be one of production, development, test, got "${nodeEnv}"\n`,
          );
          expect(result.stdout).toBe('');
        },
        40_000,
      );

      it('an AUTH_JWT_SECRET under 32 bytes with NODE_ENV=production', () => {
        const result = startToFailure({ NODE_ENV: 'production', DATABASE_URL: database.url, AUTH_JWT_SECRET: 'short' });
        expect(result.status).toBe(1);
        expect(result.stderr).toBe(
          'Invalid configuration: AUTH_JWT_SECRET must be at least 32 bytes when NODE_ENV=production (an HS256 key), got 5\n',
        );
        expect(result.stdout).toBe('');
      }, 40_000);
    }
  });
});
