import TestAgent from 'supertest/lib/agent';
import { TestApp } from './test-app';

export const SCIM_JSON = 'application/scim+json';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** SCIM's error body (RFC 7644 section 3.12). */
export const scimError = (status: number, scimType?: string) => ({
  schemas: [ERROR_SCHEMA],
  status: String(status),
  ...(scimType && { scimType }),
  detail: expect.any(String),
});

/** A SCIM token of the organisation whose owner's cookie this is. */
export async function scimToken(t: TestApp, ownerCookie: string): Promise<{ id: string; secret: string }> {
  const res = await t.http.post('/api/org/scim/tokens').set('Cookie', ownerCookie);
  if (res.status !== 201) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** Requests with the bearer token, as an identity provider sends them (SCIM's media type). */
export function scimClient(http: TestAgent, secret: string) {
  const auth = (request: ReturnType<TestAgent['get']>) =>
    request.set('Authorization', `Bearer ${secret}`).set('Accept', SCIM_JSON);
  return {
    get: (path: string) => auth(http.get(`/scim/v2${path}`)),
    delete: (path: string) => auth(http.delete(`/scim/v2${path}`)),
    post: (path: string, body: object) =>
      auth(http.post(`/scim/v2${path}`))
        .set('Content-Type', SCIM_JSON)
        .send(JSON.stringify(body)),
    put: (path: string, body: object) =>
      auth(http.put(`/scim/v2${path}`))
        .set('Content-Type', SCIM_JSON)
        .send(JSON.stringify(body)),
    patch: (path: string, body: object) =>
      auth(http.patch(`/scim/v2${path}`))
        .set('Content-Type', SCIM_JSON)
        .send(JSON.stringify(body)),
  };
}

/** A User as Okta's documentation shows its create. */
export const oktaUser = (email: string, overrides: object = {}) => ({
  schemas: [USER_SCHEMA],
  userName: email,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: 'Ada Lovelace',
  locale: 'en-US',
  externalId: `00u${email.length}okta`,
  groups: [],
  password: 'never-stored',
  active: true,
  ...overrides,
});

/** A User as Entra ID's documentation shows its create. */
export const entraUser = (email: string, overrides: object = {}) => ({
  schemas: [USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  externalId: `entra-${email}`,
  userName: email,
  active: true,
  addresses: [{ primary: true, type: 'work', country: 'GB' }],
  displayName: 'Grace Hopper',
  emails: [{ primary: true, type: 'work', value: email }],
  meta: { resourceType: 'User' },
  name: { familyName: 'Hopper', givenName: 'Grace' },
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Engineering' },
  ...overrides,
});

export const patchOp = (...operations: object[]) => ({ schemas: [PATCH_OP], Operations: operations });
