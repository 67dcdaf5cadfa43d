import { ScimTokenEntity } from '../src/database/entities';
import { invalidRequest } from './support/documented-http';
import { useSetupLinksSuite } from './support/setup-links';

/** The SCIM step of a setup link (docs/setup-links.md): the org routes of docs/scim.md with the link's organisation. */
describe('setup links: the SCIM step', () => {
  const { t, org, openLink, events } = useSetupLinksSuite();

  describe('POST /api/setup/scim/tokens', () => {
    it('201: the secret shown once, as the org route answers; it serves /scim/v2; scim.token_created with via', async () => {
      const { id: linkId, cookie } = await openLink();
      const res = await t.http.post('/api/setup/scim/tokens').set('Cookie', cookie);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        token: { id: expect.any(String), secret: expect.stringMatching(/^scim_/), createdAt: expect.any(String) },
      });
      expect(
        await t.dataSource.getRepository(ScimTokenEntity).findOneByOrFail({ id: res.body.token.id }),
      ).toMatchObject({
        tenantId: org.tenant.id,
        createdBy: `setup_link:${linkId}`,
      });
      const users = await t.http.get('/scim/v2/Users').set('Authorization', `Bearer ${res.body.token.secret}`);
      expect([users.status, users.body.totalResults]).toEqual([200, expect.any(Number)]);
      expect(await events('scim.token_created')).toEqual([
        expect.objectContaining({ actorId: `setup_link:${linkId}`, data: { via: { setupLink: linkId } } }),
      ]);
      const overview = await t.http.get('/api/setup').set('Cookie', cookie);
      expect(overview.body.steps.scim.tokens).toEqual([
        { id: res.body.token.id, createdAt: res.body.token.createdAt, lastUsedAt: expect.any(String) },
      ]);
    });
  });

  describe('GET and PUT /api/setup/scim/role-mapping', () => {
    it('the mapping replaced and read back, as the org routes answer; scim.role_mapping_updated with via', async () => {
      const { id: linkId, cookie } = await openLink();
      const put = await t.http
        .put('/api/setup/scim/role-mapping')
        .set('Cookie', cookie)
        .send({ Engineering: 'admin', 'IT Admins': 'owner' });
      expect([put.status, put.body]).toEqual([
        200,
        { success: true, mapping: { Engineering: 'admin', 'IT Admins': 'owner' } },
      ]);
      const got = await t.http.get('/api/setup/scim/role-mapping').set('Cookie', cookie);
      const owners = await t.http.get('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie);
      expect([got.status, got.body]).toEqual([200, owners.body]);
      expect(await events('scim.role_mapping_updated')).toEqual([
        expect.objectContaining({ data: expect.objectContaining({ via: { setupLink: linkId } }) }),
      ]);
    });

    it('the org route’s refusal of a bad mapping: 400 with its message', async () => {
      const { cookie } = await openLink();
      const res = await invalidRequest(
        t.http.put('/api/setup/scim/role-mapping').set('Cookie', cookie).send({ A: 'boss' }),
      );
      expect([res.status, res.body.error]).toEqual([400, expect.stringContaining('The role mapping is an object')]);
    });
  });
});
