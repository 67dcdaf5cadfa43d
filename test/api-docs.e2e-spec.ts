import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORBIDDEN, INVITATION_GET, INVITATION_POST, INVITE_ERRORS, REMOVE_MEMBER_ERRORS, SUPER_ADMIN_ERRORS, TENANT_ERRORS, UNAUTHORIZED, USER_NOT_FOUND } from './support/spec-bodies';
import { createTestApp, TestApp } from './support/test-app';

type Operation = {
  responses: Record<string, { content?: { 'application/json': { examples?: Record<string, { value: unknown }>; schema: unknown } } }>;
  security?: unknown[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
};

/** Every endpoint of SPEC section 4, with every status the spec gives it, and the bodies it names. */
const SPEC_ENDPOINTS: { method: string; path: string; statuses: Record<number, object[]>; session: boolean }[] = [
  {
    method: 'get',
    path: '/api/invitations/{token}',
    session: false,
    statuses: { 200: [], 400: [INVITATION_GET.invalid, INVITATION_GET.alreadyUsed, INVITATION_GET.expired], 404: [INVITATION_GET.invalid], 500: [INVITATION_GET.invalid] },
  },
  {
    method: 'post',
    path: '/api/invitations/{token}',
    session: false,
    statuses: { 200: [], 400: [INVITATION_POST.invalid, INVITATION_POST.alreadyUsed, INVITATION_POST.expired], 404: [INVITATION_POST.invalid], 500: [INVITATION_POST.internal] },
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
  { method: 'get', path: '/api/admin/users/{id}', session: true, statuses: { 200: [], 403: [FORBIDDEN], 404: [USER_NOT_FOUND], 500: [] } },
  { method: 'delete', path: '/api/admin/users/{id}', session: true, statuses: { 200: [], 403: [FORBIDDEN], 404: [USER_NOT_FOUND], 500: [] } },
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

/** Issue 5 item 5: the OpenAPI document and the browsable page. */
describe('API documentation (GET /api/openapi.json, GET /api/docs)', () => {
  let t: TestApp;
  let document: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, { properties: Record<string, { enum?: unknown[] }>; required?: string[] }>; securitySchemes: Record<string, unknown> };
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
        const examples = Object.values(documented.responses[status].content?.['application/json'].examples ?? {}).map((example) => example.value);
        expect(examples).toEqual(expect.arrayContaining(bodies));
      }
    });

    it(session ? 'requires the session cookie' : 'is public', () => {
      if (session) expect(operation(method, path).security).toEqual([{ session: [] }]);
      else expect(operation(method, path).security).toBeUndefined();
    });
  });

  it('describes success bodies field by field', () => {
    const valid = operation('get', '/api/invitations/{token}').responses['200'].content!['application/json'].schema as { $ref: string };
    expect(Object.keys(schemaOf(valid.$ref).properties).sort()).toEqual(['email', 'expiresAt', 'role', 'tenantId', 'tenantName', 'valid']);
    const tenants = operation('get', '/api/admin/tenants').responses['200'].content!['application/json'].schema as { $ref: string };
    expect(Object.keys(schemaOf(tenants.$ref).properties)).toEqual(['tenants']);
    expect(Object.keys(document.components.schemas.TenantResponse.properties).sort()).toEqual(['createdAt', 'id', 'name', 'status', 'type']);
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

  it('leaves out the operational endpoints: outside /api, only the invitation page is documented', () => {
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api/'))).toEqual(['/invitations/{token}']);
  });

  it.each(['get', 'post'])('describes %s /invitations/{token}, the invitation page, as public HTML with every status it answers', (method) => {
    const page = operation(method, '/invitations/{token}');
    expect(page.security).toBeUndefined();
    expect(Object.keys(page.responses).sort()).toEqual(['200', '400', '404', '500']);
    for (const response of Object.values(page.responses) as { content?: Record<string, unknown> }[]) {
      expect(response.content).toEqual({ 'text/html': { schema: { type: 'string' } } });
    }
  });

  it('serves the Swagger UI page at /api/docs', async () => {
    const res = await t.http.get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('swagger-ui');
  });
});
