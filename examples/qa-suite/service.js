/**
 * The service under test, and its test-mode routes (docs/test-mode.md).
 *
 * With SERVICE_URL: any instance started with TEST_MODE=true, its key in TEST_MODE_KEY, and a
 * super-admin made once on its database (README.md, "Start the service in test mode").
 * Without: the service built in SERVICE_DIR (by default this repository) runs in this process,
 * through its createApp(), on a fresh SQLite file (or DATABASE_URL); the super-admin is made here
 * with the service's CLI, as the README makes it.
 */
const request = require('supertest');
const { spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const SUPER_ADMIN_ID = process.env.QA_SUPER_ADMIN_ID || 'qa-super-admin';
const createSuperAdmin = [
  'users:create',
  ...['--id', SUPER_ADMIN_ID, '--email', `${SUPER_ADMIN_ID}@example.com`, '--platform-role', 'super_admin'],
];

/** The test-mode routes, each with the key. */
function testModeRoutes(http, key) {
  const withKey = (test) => test.set('X-Test-Mode-Key', key);
  return {
    mailbox: (to) => withKey(http.get('/api/test/mailbox').query({ to })),
    session: (body) => withKey(http.post('/api/test/sessions').send(body)),
    moveClock: (advanceSeconds) => withKey(http.post('/api/test/clock').send({ advanceSeconds })),
    resetClock: () => withKey(http.post('/api/test/clock').send({ reset: true })),
    clearRateLimits: () => withKey(http.delete('/api/test/rate-limits')),
    removeTenants: (namePrefix) => withKey(http.delete('/api/test/tenants').query({ namePrefix })),
  };
}

/**
 * Signs someone in through test mode: `{userId}` of a stored user (claims from the record), or
 * `{sub, email}` of a new one; the `Cookie` header value that carries the session.
 */
async function signIn(testMode, body) {
  const res = await testMode.session(body);
  if (res.status !== 200) throw new Error(`POST /api/test/sessions ${JSON.stringify(body)}: ${res.status} ${res.text}`);
  return res.body.cookie.split(';')[0];
}

/** The service in this process: createApp() of the built service, in test mode. */
async function startInProcess() {
  const serviceDir = resolve(process.env.SERVICE_DIR || join(__dirname, '..', '..'));
  if (!existsSync(join(serviceDir, 'dist', 'src', 'create-app.js')))
    throw new Error(`${serviceDir}/dist is missing: build the service first (npm run build there)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-suite-'));
  const key = randomBytes(24).toString('hex');
  const env = {
    ...process.env,
    TEST_MODE: 'true',
    TEST_MODE_KEY: key,
    DATABASE_URL: process.env.DATABASE_URL || `sqlite:${join(dataDir, 'qa.sqlite')}`,
    INVITE_RATE_LIMIT: process.env.INVITE_RATE_LIMIT || '3',
  };
  const { createApp } = require(serviceDir);
  const app = await createApp(env);
  const http = request(app.getHttpServer());
  const testMode = testModeRoutes(http, key);
  if ((await testMode.session({ userId: SUPER_ADMIN_ID })).status === 404) {
    const cli = spawnSync(process.execPath, [join(serviceDir, 'dist', 'src', 'cli', 'main.js'), ...createSuperAdmin], {
      cwd: serviceDir,
      env,
      encoding: 'utf8',
    });
    if (cli.status !== 0) throw new Error(`The CLI could not make the super-admin: ${cli.stderr}`);
  }
  return {
    http,
    testMode,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The service at SERVICE_URL, or one in this process; `close` when done. */
async function connect() {
  if (!process.env.SERVICE_URL) return startInProcess();
  if (!process.env.TEST_MODE_KEY) throw new Error('Set TEST_MODE_KEY to the key that the service at SERVICE_URL has');
  const http = request(process.env.SERVICE_URL);
  const testMode = testModeRoutes(http, process.env.TEST_MODE_KEY);
  const res = await testMode.session({ userId: SUPER_ADMIN_ID });
  if (res.status === 404)
    throw new Error(
      `No user "${SUPER_ADMIN_ID}" at ${process.env.SERVICE_URL}: make it once, on the service's database, ` +
        `with npm run -s cli -- ${createSuperAdmin.join(' ')}`,
    );
  return { http, testMode, close: async () => undefined };
}

module.exports = { connect, signIn, SUPER_ADMIN_ID };
