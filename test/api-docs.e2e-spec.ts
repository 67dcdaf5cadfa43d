import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  FORBIDDEN,
  INVITATION_GET,
  INVITATION_POST,
  INVITE_ERRORS,
  REMOVE_MEMBER_ERRORS,
  SUPER_ADMIN_ERRORS,
  TENANT_ERRORS,
  UNAUTHORIZED,
  USER_NOT_FOUND,
} from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';

type Operation = {
  responses: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content?: { 'application/json': { examples?: Record<string, { value: unknown }>; schema: unknown } };
    }
  >;
  security?: unknown[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
};

/** Every endpoint of SPEC section 4, with every status the spec gives it, and the bodies it names. */
const SPEC_ENDPOINTS: { method: string; path: string; statuses: Record<number, object[]>; session: boolean }[] = [
  {
    method: 'get',
    path: '/api/invitations/{token}',
    session: false,
    statuses: {
      200: [],
      400: [INVITATION_GET.invalid, INVITATION_GET.alreadyUsed, INVITATION_GET.expired],
      404: [INVITATION_GET.invalid],
      500: [INVITATION_GET.invalid],
    },
  },
  {
    method: 'post',
    path: '/api/invitations/{token}',
    session: false,
    statuses: {
      200: [],
      400: [INVITATION_POST.invalid, INVITATION_POST.alreadyUsed, INVITATION_POST.expired],
      404: [INVITATION_POST.invalid],
      500: [INVITATION_POST.internal],
    },
  },
  {
    method: 'get',
    path: '/api/admin/tenants',
    session: true,
    statuses: { 200: [], 401: [UNAUTHORIZED], 403: [FORBIDDEN], 500: [TENANT_ERRORS.fetchFailed] },
  },
  {
    method: 'post',
    path: '/api/admin/tenants',
    session: true,
    statuses: {
      201: [],
      400: [TENANT_ERRORS.nameRequired, TENANT_ERRORS.typeRequired, TENANT_ERRORS.invalidType],
      401: [UNAUTHORIZED],
      403: [FORBIDDEN],
      500: [TENANT_ERRORS.createFailed],
    },
  },
  { method: 'get', path: '/api/admin/super-admins', session: true, statuses: { 200: [], 403: [FORBIDDEN], 500: [] } },
  {
    method: 'post',
    path: '/api/admin/super-admins',
    session: true,
    statuses: {
      200: [],
      400: [SUPER_ADMIN_ERRORS.emailRequired, SUPER_ADMIN_ERRORS.alreadySuperAdmin],
      403: [FORBIDDEN],
      404: [SUPER_ADMIN_ERRORS.notFound],
      500: [],
    },
  },
  {
    method: 'get',
    path: '/api/admin/users/{id}',
    session: true,
    statuses: { 200: [], 403: [FORBIDDEN], 404: [USER_NOT_FOUND], 500: [] },
  },
  {
    method: 'delete',
    path: '/api/admin/users/{id}',
    session: true,
    statuses: { 200: [], 403: [FORBIDDEN], 404: [USER_NOT_FOUND], 500: [] },
  },
  // These two need the decorators of src/api-docs/org-members.docs.ts on OrgMembersController.
  {
    method: 'post',
    path: '/api/org/invite',
    session: true,
    statuses: {
      200: [],
      400: [INVITE_ERRORS.emailRequired, INVITE_ERRORS.invalidRole, INVITE_ERRORS.alreadyMember],
      401: [UNAUTHORIZED],
      403: [INVITE_ERRORS.notOrgUser, INVITE_ERRORS.notOwnerOrAdmin],
      429: [INVITE_ERRORS.rateLimited],
      500: [INVITE_ERRORS.createFailed],
    },
  },
  {
    method: 'delete',
    path: '/api/org/users/{id}',
    session: true,
    statuses: {
      200: [],
      400: [REMOVE_MEMBER_ERRORS.cannotRemoveSelf],
      401: [UNAUTHORIZED],
      403: [
        REMOVE_MEMBER_ERRORS.notOrgUser,
        REMOVE_MEMBER_ERRORS.notOwnerOrAdmin,
        REMOVE_MEMBER_ERRORS.notInOrganisation,
        REMOVE_MEMBER_ERRORS.adminCannotRemoveOwner,
      ],
      404: [USER_NOT_FOUND],
      500: [REMOVE_MEMBER_ERRORS.removeFailed],
    },
  },
];

type LintProblem = { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] };

/** The problems that @redocly/cli's `lint` (recommended rules) finds in `file`; it exits 1 when any is an error. */
async function redoclyLint(file: string): Promise<LintProblem[]> {
  const cli = join(__dirname, '..', 'node_modules', '.bin', 'redocly');
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const output = await promisify(execFile)(cli, ['lint', '--extends', 'recommended', '--format', 'json', file], {
    env,
  }).catch((failed: { stdout?: string; code?: number }) => {
    if (failed.code !== 1 || !failed.stdout) throw failed;
    return { stdout: failed.stdout };
  });
  return (JSON.parse(output.stdout) as { problems: LintProblem[] }).problems;
}

/** The OpenAPI document and the browsable page. */
describe('API documentation (GET /api/openapi.json, GET /api/docs)', () => {
  let t: TestApp;
  let document: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    servers: unknown[];
    components: {
      schemas: Record<string, { properties: Record<string, { enum?: unknown[] }>; required?: string[] }>;
      securitySchemes: Record<string, unknown>;
      headers: Record<string, unknown>;
    };
  };
  const operation = (method: string, path: string) => document.paths[path]?.[method];
  const schemaOf = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')];

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.http.get('/api/openapi.json');
    expect(res.status).toBe(200);
    document = res.body;
  });
  afterAll(() => t.close());

  it('is OpenAPI 3, with the session cookie as an apiKey scheme', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.components.securitySchemes.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: t.config.sessionCookieName,
      description: expect.any(String),
    });
  });

  describe.each(SPEC_ENDPOINTS)('$method $path', ({ method, path, statuses, session }) => {
    it('is documented with every status of the spec, and each error body the spec gives', () => {
      const documented = operation(method, path);
      expect(documented).toBeDefined();
      expect(Object.keys(documented.responses).sort()).toEqual(expect.arrayContaining(Object.keys(statuses)));
      for (const [status, bodies] of Object.entries(statuses)) {
        const examples = Object.values(documented.responses[status].content?.['application/json'].examples ?? {}).map(
          (example) => example.value,
        );
        expect(examples).toEqual(expect.arrayContaining(bodies));
      }
    });

    it(session ? 'requires the session cookie' : 'is public: `security: []`', () => {
      expect(operation(method, path).security).toEqual(session ? [{ session: [] }] : []);
    });
  });

  it('describes success bodies field by field', () => {
    const valid = operation('get', '/api/invitations/{token}').responses['200'].content!['application/json'].schema as {
      $ref: string;
    };
    expect(Object.keys(schemaOf(valid.$ref).properties).sort()).toEqual([
      'email',
      'expiresAt',
      'role',
      'tenantId',
      'tenantName',
      'valid',
    ]);
    const tenants = operation('get', '/api/admin/tenants').responses['200'].content!['application/json'].schema as {
      $ref: string;
    };
    // nextCursor: on a page (`?limit=&cursor=`) only, never in the spec answer (admin-tenants-paging.e2e-spec).
    expect(schemaOf(tenants.$ref)).toMatchObject({ required: ['tenants'] });
    expect(Object.keys(schemaOf(tenants.$ref).properties)).toEqual(['tenants', 'nextCursor']);
    expect(Object.keys(document.components.schemas.TenantResponse.properties).sort()).toEqual([
      'createdAt',
      'id',
      'name',
      'status',
      'type',
    ]);
  });

  it('describes request bodies: POST /api/admin/tenants takes a required name and a type from the allowed list', () => {
    const body = schemaOf(operation('post', '/api/admin/tenants').requestBody!.content['application/json'].schema.$ref);
    expect(body.required).toEqual(['name', 'type']);
    expect(body.properties.type.enum).toEqual(['personal', 'organisation', 'charity', 'business', 'nonprofit']);
  });

  it('equals the committed openapi.json, from which portals generate their client (`npm run openapi:write` rewrites it)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'));
    expect(document).toEqual(committed);
  });

  it('marks the browser routes (pages, redirects, form posts) `x-browser-route: true`, and only them', () => {
    const browser = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => (op as Record<string, unknown>)['x-browser-route'] === true)
        .map(([method]) => `${method} ${path}`),
    );
    expect(browser.sort()).toEqual([
      'get /api/docs',
      'get /api/docs/LICENSE',
      'get /api/docs/docs/swagger-ui-init.js',
      'get /api/docs/index.html',
      'get /api/docs/swagger-ui-init.js',
      'get /invitations/{token}',
      'get /setup',
      'get /setup-assets/{file}',
      'get /setup/{token}',
      'get /sso/oidc/{id}/callback',
      'get /sso/saml/{id}/metadata',
      'get /sso/saml/{id}/requests/{requestId}',
      'get /sso/signed-in',
      'get /sso/start',
      'post /invitations/{token}',
      'post /sso/saml/{id}/acs',
    ]);
  });

  it.each([
    ['get', ['200', '400', '404', '500', '503', 'default']],
    // The button also joins a signed-in visitor (202, 403, 409) and sends one without a session to sign in (401).
    ['post', ['200', '202', '400', '401', '403', '404', '409', '413', '415', '500', '503', 'default']],
  ])(
    'describes %s /invitations/{token}, the invitation page, as public HTML with every status it answers',
    (method, statuses) => {
      const page = operation(method, '/invitations/{token}');
      expect(page.security).toEqual([]);
      expect(Object.keys(page.responses).sort()).toEqual(statuses);
      for (const status of ['200', '400', '404', '500']) {
        expect((page.responses[status].content as Record<string, unknown>)['text/html']).toEqual({
          schema: { type: 'string' },
        });
      }
    },
  );

  describe('exact for generated clients', () => {
    const operations = () =>
      Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ path, method, op })),
      );
    const examplesOf = (op: Operation, status: string) =>
      Object.values(op.responses[status]?.content?.['application/json'].examples ?? {}).map((example) => example.value);

    it('has a server entry: relative to where the document was fetched, PUBLIC_BASE_URL not being set', () => {
      expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    });

    it('every operation documents 503 "Request timed out" and, as `default`, the ALLOWED_HOSTS and ALLOWED_ORIGINS refusals', () => {
      for (const { op } of operations()) {
        expect(examplesOf(op, '503')).toEqual(expect.arrayContaining([{ error: 'Request timed out' }]));
        expect(examplesOf(op, 'default')).toEqual([{ error: 'Host not allowed' }, { error: 'Origin not allowed' }]);
      }
    });

    it('every response of every operation declares X-Request-Id, but Node’s 431 before the service', () => {
      expect(document.components.headers['X-Request-Id']).toEqual({
        description: expect.any(String),
        schema: { type: 'string', minLength: 1, maxLength: 128 },
      });
      for (const { op } of operations()) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (status === '431') continue;
          expect(response.headers?.['X-Request-Id']).toEqual({ $ref: '#/components/headers/X-Request-Id' });
        }
      }
    });

    it.each([
      ['post', '/api/org/invite'],
      ['post', '/api/admin/tenants'],
      ['post', '/api/admin/super-admins'],
    ])('%s %s documents the body parser: 400 malformed or too deep, 413 too large, 415 not UTF-8', (method, path) => {
      const op = operation(method, path);
      expect(examplesOf(op, '400')).toEqual(
        expect.arrayContaining([
          { error: 'Malformed JSON body' },
          { error: 'JSON body nested too deeply' },
          { error: 'Request body must be a JSON object' },
        ]),
      );
      expect(examplesOf(op, '413')).toEqual([{ error: 'Request body too large' }]);
      expect(examplesOf(op, '415')).toEqual(
        expect.arrayContaining([{ error: 'Unsupported charset: JSON must be UTF-8' }]),
      );
    });

    it('429 on POST /api/org/invite declares Retry-After in seconds', () => {
      expect(operation('post', '/api/org/invite').responses['429'].headers?.['Retry-After']).toEqual({
        description: expect.any(String),
        schema: { type: 'integer', minimum: 0 },
      });
    });

    it('required request strings have minLength 1, and total of GET /api/admin/super-admins is an integer', () => {
      const schemas = document.components.schemas as Record<
        string,
        { properties: Record<string, { minLength?: number; type?: string }> }
      >;
      expect(schemas.InviteDto.properties.email.minLength).toBe(1);
      expect(schemas.CreateTenantDto.properties.name.minLength).toBe(1);
      expect(schemas.GrantSuperAdminDto.properties.email.minLength).toBe(1);
      expect(schemas.SuperAdminPageResponse.properties.total.type).toBe('integer');
    });

    it('`redocly lint` with the recommended rules finds nothing in the served document: no error, no warning', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
      try {
        const file = join(dir, 'openapi.json');
        writeFileSync(file, JSON.stringify(document));
        const problems = await redoclyLint(file);
        const found = problems.map(({ severity, ruleId, message, location }) => ({
          problem: `${severity} ${ruleId}: ${message}`,
          at: location.map((place) => place.pointer),
        }));
        expect(found).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it('serves the Swagger UI page at /api/docs', async () => {
    const res = await t.http.get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('swagger-ui');
  });
});
