/**
 * Every route the server serves is in the API document and in docs/api.md: the Express router's
 * routes (test mode's included, with TEST_MODE on), compared with the document's paths and with the
 * routes docs/api.md names (its specification sections and section 10's table).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from './support/test-app';

type Layer = { route?: { path: string; methods: Record<string, boolean> } };

/** The router's routes as `METHOD /path/{param}`; Express's automatic HEAD of a GET left out. */
function routerRoutes(t: TestApp): string[] {
  const router = (t.app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } }).router;
  return router.stack.flatMap(({ route }) => {
    if (!route) return [];
    // Without strict routing /api/docs/ is /api/docs.
    const path = route.path.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
    return Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${path}`);
  });
}

/** SCIM's answer to any other path under /scim/v2 (404, in SCIM's form): a fallback, not a route. */
const SCIM_FALLBACK = /^[A-Z-]+ \/scim\/v2\/\*path$/;

const documented = (document: { paths: Record<string, object> }) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );

/** The routes docs/api.md names: `METHOD /path` in section 10's table, `### 4.n METHOD /path` above it. */
function apiMdRoutes(): Set<string> {
  const text = readFileSync(join(__dirname, '..', 'docs', 'api.md'), 'utf8');
  const named = [...text.matchAll(/(?:`|### 4\.\d+ )(GET|POST|PUT|PATCH|DELETE) (\/[^\s`]*)/g)];
  return new Set(named.map(([, method, path]) => `${method} ${path}`));
}

const unique = (routes: string[]) => [...new Set(routes)].sort();

describe.each([
  ['the committed document', {}],
  ['test mode on (TEST_MODE=true)', { TEST_MODE: 'true', TEST_MODE_KEY: 'k'.repeat(32) }],
])('the routes the server serves, %s', (_name, env) => {
  let t: TestApp;
  let document: { paths: Record<string, object> };
  beforeAll(async () => {
    t = await createTestApp({ env });
    document = (await t.http.get('/api/openapi.json')).body;
  });
  afterAll(() => t.close());

  it('are the document’s operations, one for one (the SCIM fallback aside)', () => {
    const served = unique(routerRoutes(t).filter((route) => !SCIM_FALLBACK.test(route)));
    expect(served).toEqual(unique(documented(document)));
  });

  it('are each named in docs/api.md', () => {
    const named = apiMdRoutes();
    expect(unique(routerRoutes(t).filter((route) => !SCIM_FALLBACK.test(route) && !named.has(route)))).toEqual([]);
  });
});
