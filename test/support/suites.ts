import { TenantEntity } from '../../src/database/entities';
import { factories } from './factories';
import { newInviter } from './inviting';
import { createTestApp, TestApp, TestAppOptions } from './test-app';
import { createTestDatabase, TestDatabase } from './test-database';
import { deleteRedisKeys, TEST_REDIS_URL, testRedisPrefix } from './test-redis';
import { TestUser } from './test-identity';

/**
 * createTestApp's options, or a function that gives them when the app starts: after the
 * beforeAll hooks the suite registered before this one (a database it made, say).
 */
export type SuiteAppOptions = TestAppOptions | (() => TestAppOptions);

/** What useTestApp gives a suite: constants that its hooks fill in. */
export interface AppSuite {
  /** The suite's app: empty until beforeAll has started it. */
  t: TestApp;
  factory: ReturnType<typeof factories>;
}

/**
 * One app for the `describe` that calls this: started before its tests, closed after them;
 * spies restored after each test. The app object is filled in by beforeAll, so that the suite
 * holds it (and its factory) in a const: `const { t, factory } = useTestApp();`.
 */
export function useTestApp(options: SuiteAppOptions = {}): AppSuite {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await createTestApp(typeof options === 'function' ? options() : options));
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());
  return { t, factory: factories(t) };
}

/** What useTwoInstances gives a suite: the two apps and their database, filled in by beforeAll, and their Redis key prefix. */
export interface TwoInstances {
  first: TestApp;
  second: TestApp;
  database: TestDatabase;
  redisPrefix: string;
}

/**
 * Two app instances on one fresh database of their own, for what must hold across a fleet: started
 * before the `describe`'s tests, closed (and the database dropped) after them. `redis`: both count in
 * TEST_REDIS_URL under one key prefix of their own, deleted afterwards. `identityOf`: the database
 * whose users they share (by default, theirs). The options are read when the apps start.
 */
export function useTwoInstances(
  options: () => { env?: Record<string, string>; redis?: boolean; identityOf?: TestDatabase } = () => ({}),
): TwoInstances {
  const fleet: TwoInstances = {
    first: {} as TestApp,
    second: {} as TestApp,
    database: {} as TestDatabase,
    redisPrefix: testRedisPrefix(),
  };
  let redis = false;
  beforeAll(async () => {
    const { env = {}, identityOf, redis: sharesRedis = false } = options();
    redis = sharesRedis;
    const database = Object.assign(fleet.database, await createTestDatabase());
    const shared = redis ? { ...env, REDIS_URL: TEST_REDIS_URL!, REDIS_KEY_PREFIX: fleet.redisPrefix } : env;
    Object.assign(fleet.first, await createTestApp({ database, identityOf, env: shared }));
    Object.assign(fleet.second, await createTestApp({ database, identityOf, env: shared }));
  });
  afterAll(async () => {
    await Promise.all([fleet.first.close?.(), fleet.second.close?.()]);
    await fleet.database.drop?.();
    if (redis) await deleteRedisKeys(fleet.redisPrefix);
  });
  return fleet;
}

/** The organisation a test works in; beforeEach replaces it. */
export interface Organisation {
  tenant: TenantEntity;
  owner: TestUser;
  /** The `Cookie` header that signs the owner in. */
  ownerCookie: string;
  /** A number for unique test data (`${name}-${org.sequence++}@example.com`), counted across the suite. */
  sequence: number;
}

export interface OrganisationSuiteOptions {
  app?: SuiteAppOptions;
  /** Give the owner the address a-owner-N@example.com, which sorts before the ones the suite makes. */
  ownerSortsFirst?: boolean;
}

export interface OrganisationSuite extends AppSuite {
  org: Organisation;
  /**
   * Callers that org routes refuse with "Only organisation users can access this", for `it.each`:
   * what each one is, and how to make one.
   */
  notOrgUsers: [string, () => Promise<TestUser>][];
}

/**
 * useTestApp, and before each test a fresh tenant with a signed-in owner:
 * `const { t, factory, org } = useOrganisationSuite();`, then `org.tenant`, `org.ownerCookie`.
 */
export function useOrganisationSuite(options: OrganisationSuiteOptions = {}): OrganisationSuite {
  const suite = useTestApp(options.app);
  const { factory } = suite;
  const org = { sequence: 0 } as Organisation;
  beforeEach(async () => {
    const owner = options.ownerSortsFirst ? { email: `a-owner-${org.sequence++}@example.com` } : {};
    const inviter = await newInviter(suite.t, {}, owner);
    Object.assign(org, { tenant: inviter.tenant, owner: inviter.user, ownerCookie: inviter.cookie });
  });
  const notOrgUsers: OrganisationSuite['notOrgUsers'] = [
    ['not an org user', () => factory.user({ tenantId: org.tenant.id, role: 'owner' })],
    ['an org user without a tenant', () => factory.user({ userType: 'org', role: 'owner' })],
    ['a super-admin outside any organisation', () => factory.superAdmin()],
  ];
  return { ...suite, org, notOrgUsers };
}
