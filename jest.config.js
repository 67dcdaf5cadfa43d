/**
 * Unit specs live beside the code; integration suites (the database layer, no HTTP) and e2e suites
 * in test/ run once per database.
 * SQLite always; MariaDB/MySQL when TEST_DATABASE_URL is set (.ci/run sets it).
 * Browser suites (`*.browser-spec.ts`) run once, on SQLite, in Debian's Chromium.
 */
const { existsSync } = require('node:fs');
/**
 * openid-client, oauth4webapi and jose are ES modules only (docs/sso.md, "Libraries"): Node requires
 * them as they are (require(esm)), but jest's module system does not, so ts-jest turns their JavaScript
 * into CommonJS as it does our TypeScript.
 */
const ESM_ONLY = ['openid-client', 'oauth4webapi', 'jose'];
const transform = {
  '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: [
    'ts-jest',
    { diagnostics: false, tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022' } },
  ],
};
// dist/ (the build that `npm test` makes first) holds a copy of package.json: not a module to map.
const common = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  rootDir: __dirname,
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

// The AWS SDK warns, once per process, that its 2027 releases will need Node 22: in a test run that
// is one warning per worker and per spawned server, most of the output. The SDK's own switch
// (@aws-sdk/core, emitWarningIfUnsupportedVersion); workers and spawned processes inherit it.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** `*.local.e2e-spec.ts` run on the local identity store only, `*.cognito.e2e-spec.ts` on Cognito only. */
const LOCAL_ONLY = '\\.local\\.e2e-spec\\.ts$';
const COGNITO_ONLY = '\\.cognito\\.e2e-spec\\.ts$';
/** `*.mariadb.e2e-spec.ts` need a database server to cut off (fault injection): e2e:mariadb only. */
const MARIADB_ONLY = '\\.mariadb\\.e2e-spec\\.ts$';
/**
 * Suites of the artefact rather than the database (the watch build, the packed typed client, the
 * generated portal client, the log pipe, the documents' walks): what they check does not depend on
 * the database behind the server, so they run once, on SQLite, and CI's time goes to what does.
 */
const ONCE_ON_SQLITE = [
  ...['build-and-develop', 'typed-client', 'portal-client', 'log-reader-stall', 'docs', 'cli-process'].map(
    (name) => `/test/${name}\\.local\\.e2e-spec\\.ts$`,
  ),
  // The API document: generated from the code and linted, whatever the database; and the routes it lists.
  '/test/api-docs\\.e2e-spec\\.ts$',
  '/test/api-routes\\.e2e-spec\\.ts$',
];
/**
 * Suites of the service's plumbing rather than of its people (the HTTP surface, headers and limits,
 * logs, metrics, webhooks' delivery, the API document): no identity store decides what they check, so
 * e2e:cognito leaves them to the local runs.
 */
const NOT_OF_THE_IDENTITY_STORE = ['http', 'hardening', 'logging', 'metrics', 'webhooks', 'api-docs', 'api-routes'].map(
  (name) => `/test/${name}\\.e2e-spec\\.ts$`,
);

const e2e = (database) => ({
  ...common,
  displayName: `e2e:${database}`,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    COGNITO_ONLY,
    ...(database === 'mariadb' ? ONCE_ON_SQLITE : [MARIADB_ONLY]),
  ],
  setupFiles: [`<rootDir>/test/support/use-${database}.ts`],
});

/**
 * Suites of the database layer that make no HTTP call (`*.integration-spec.ts`): stores, the atomic
 * writer, outbox claims, migrations, and the SQL snapshots (which need no server: SQLite only).
 */
const integration = (database) => ({
  ...common,
  displayName: `integration:${database}`,
  testMatch: ['<rootDir>/test/**/*.integration-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...(database === 'mariadb' ? ['sql-snapshots'] : [])],
  setupFiles: [`<rootDir>/test/support/use-${database}.ts`],
});

/** The same e2e suites on IDENTITY_STORE=cognito, against one cognito-local emulator per run (SQLite). */
const e2eCognito = {
  ...common,
  displayName: 'e2e:cognito',
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', LOCAL_ONLY, MARIADB_ONLY, ...NOT_OF_THE_IDENTITY_STORE],
  setupFiles: ['<rootDir>/test/support/use-cognito.ts'],
  globalSetup: '<rootDir>/test/support/cognito-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/cognito-global-teardown.ts',
};

// examples/qa-suite is a Jest project of its own (its package.json), which
// test/qa-suite.local.e2e-spec.ts runs as a QA team would: no testMatch here reaches its tests.
const projects = [
  {
    ...common,
    displayName: 'unit',
    testMatch: ['<rootDir>/src/**/*.spec.ts'],
    setupFiles: ['<rootDir>/test/support/quiet-logs.ts'],
  },
  integration('sqlite'),
  e2e('sqlite'),
  e2eCognito,
  {
    ...common,
    displayName: 'browser',
    testMatch: ['<rootDir>/test/**/*.browser-spec.ts'],
    setupFiles: ['<rootDir>/test/support/use-sqlite.ts'],
  },
];

/**
 * The cluster suite (test/cluster/): two instances on a three-node Galera cluster and a Redis
 * Cluster, started by scripts/local-cluster.sh (.ci/run does it; `npm run test:cluster` runs this
 * project alone, starting and stopping them).
 */
const cluster = {
  ...common,
  displayName: 'cluster',
  testMatch: ['<rootDir>/test/cluster/**/*.cluster-spec.ts'],
  setupFiles: ['<rootDir>/test/support/quiet-logs.ts'],
};

const skipped = [];
if (process.env.TEST_GALERA_NODES && process.env.TEST_REDIS_CLUSTER_NODES) projects.push(cluster);
else skipped.push('the cluster suite (npm run test:cluster starts a local Galera cluster and Redis Cluster for it)');
if (process.env.TEST_DATABASE_URL) projects.push(integration('mariadb'), e2e('mariadb'));
else skipped.push('e2e on MariaDB/MySQL (set TEST_DATABASE_URL=mysql://root@127.0.0.1:3306/test)');
if (!process.env.TEST_REDIS_URL) skipped.push('tests that need Redis (set TEST_REDIS_URL=redis://127.0.0.1:6379)');
// The path that test/support/browser.ts launches.
if (!existsSync('/usr/bin/chromium')) skipped.push('browser tests of the invitation page (apt-get install chromium)');
if (skipped.length && !process.env.JEST_WORKER_ID) {
  for (const what of skipped) process.stderr.write(`SKIPPED: ${what}\n`);
  if (process.env.CI) {
    process.stderr.write('CI must run every suite: refusing to skip.\n');
    process.exit(1);
  }
}

module.exports = {
  projects,
  testTimeout: 30_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
