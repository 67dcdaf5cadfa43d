import { OrgDomainEntity } from '../src/database/entities';
import { refused as domainRefused } from './support/domains';
import { invalidRequest } from './support/documented-http';
import { setupRefused, useSetupLinksSuite } from './support/setup-links';

/**
 * The domain step of a setup link (docs/setup-links.md): POST /api/org/domains' body, answers and
 * refusals with the link's organisation; every change audited with `via: {"setupLink": id}`.
 */
describe('setup links: the domain step', () => {
  const { t, org, openLink, newName, claim, publishFor, itemsOf, events } = useSetupLinksSuite();

  const add = (cookie: string, domain: unknown) =>
    t.http.post('/api/setup/domains').set('Cookie', cookie).send({ domain });
  const verify = (cookie: string, name: string) =>
    t.http.post(`/api/setup/domains/${name}/verify`).set('Cookie', cookie);
  const domainRows = () => t.dataSource.getRepository(OrgDomainEntity).findBy({ tenantId: org.tenant.id });

  describe('POST /api/setup/domains', () => {
    it('201: the organisation’s pending claim, as the org route answers; domain.added with via; the link made it', async () => {
      const { id, cookie } = await openLink();
      const name = newName();
      const res = await add(cookie, name);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        domain: expect.objectContaining({ name, status: 'pending', verification: expect.any(Object) }),
      });
      const [row] = await domainRows();
      expect(row).toMatchObject({ name, tenantId: org.tenant.id });
      expect(await events('domain.added')).toEqual([
        expect.objectContaining({
          actorId: `setup_link:${id}`,
          data: expect.objectContaining({ via: { setupLink: id } }),
        }),
      ]);
      expect(await itemsOf(id)).toEqual([expect.objectContaining({ kind: 'domain', itemId: row.id })]);
    });

    it('the org route’s refusals: 400 DOMAIN_INVALID, 409 DOMAIN_ALREADY_ADDED; nothing made', async () => {
      const { id, cookie } = await openLink();
      const bad = await invalidRequest(add(cookie, 'not a domain'));
      expect([bad.status, bad.body]).toEqual([400, domainRefused('DOMAIN_INVALID')]);
      const name = newName();
      expect((await claim(name)).status).toBe(201);
      const again = await add(cookie, name);
      expect([again.status, again.body]).toEqual([409, domainRefused('DOMAIN_ALREADY_ADDED')]);
      expect(await itemsOf(id)).toEqual([]);
    });
  });

  describe('POST /api/setup/domains/{name}/verify', () => {
    it('the TXT record looked up: verified, domain.verified with via', async () => {
      const { id, cookie } = await openLink();
      const name = newName();
      publishFor((await add(cookie, name)).body);
      const res = await verify(cookie, name);
      expect([res.status, res.body.domain.status, res.body.domain.lastCheck.result]).toEqual([
        200,
        'verified',
        'found',
      ]);
      expect(await events('domain.verified')).toEqual([
        expect.objectContaining({ data: expect.objectContaining({ via: { setupLink: id } }) }),
      ]);
    });

    it('no record: the check’s reason, the claim still pending', async () => {
      const { cookie } = await openLink();
      const name = newName();
      await add(cookie, name);
      const res = await verify(cookie, name);
      expect([res.status, res.body.domain.status, res.body.domain.lastCheck.result]).toEqual([
        200,
        'pending',
        'record_not_found',
      ]);
    });

    it('a claim the owner made is verified through the link too; an unknown name is 404 DOMAIN_NOT_FOUND', async () => {
      const { cookie } = await openLink();
      const name = newName();
      publishFor((await claim(name)).body);
      expect((await verify(cookie, name)).body.domain.status).toBe('verified');
      const unknown = await verify(cookie, newName());
      expect([unknown.status, unknown.body]).toEqual([404, domainRefused('DOMAIN_NOT_FOUND')]);
    });
  });

  describe('GET /api/setup/domains/{name}', () => {
    it('one claim of the organisation, as the org route answers', async () => {
      const { cookie } = await openLink();
      const name = newName();
      await claim(name);
      const res = await t.http.get(`/api/setup/domains/${name}`).set('Cookie', cookie);
      const owners = await t.http.get(`/api/org/domains/${name}`).set('Cookie', org.ownerCookie);
      expect([res.status, res.body]).toEqual([200, owners.body]);
      expect(res.body.domain.name).toBe(name);
    });
  });

  describe('DELETE /api/setup/domains/{name}', () => {
    it('a claim the link made: removed, domain.removed with via', async () => {
      const { id, cookie } = await openLink();
      const name = newName();
      await add(cookie, name);
      const res = await t.http.delete(`/api/setup/domains/${name}`).set('Cookie', cookie);
      expect([res.status, res.body]).toEqual([200, { success: true, closedRequests: 0, membersKept: 0 }]);
      expect(await domainRows()).toEqual([]);
      expect(await events('domain.removed')).toEqual([
        expect.objectContaining({ data: expect.objectContaining({ via: { setupLink: id } }) }),
      ]);
    });

    it('a claim it did not make (the owner’s, or another link’s): 403 SETUP_ACTION_NOT_ALLOWED, the claim kept', async () => {
      const owners = newName();
      await claim(owners);
      const other = await openLink();
      const others = newName();
      await add(other.cookie, others);
      const { cookie } = await openLink();
      for (const name of [owners, others]) {
        const res = await t.http.delete(`/api/setup/domains/${name}`).set('Cookie', cookie);
        expect([res.status, res.body]).toEqual([403, setupRefused('SETUP_ACTION_NOT_ALLOWED')]);
      }
      expect((await domainRows()).map((row) => row.name).sort()).toEqual([owners, others].sort());
      expect(await events('domain.removed')).toEqual([]);
    });

    it('an unknown name: 404 DOMAIN_NOT_FOUND', async () => {
      const { cookie } = await openLink();
      const res = await t.http.delete(`/api/setup/domains/${newName()}`).set('Cookie', cookie);
      expect([res.status, res.body]).toEqual([404, domainRefused('DOMAIN_NOT_FOUND')]);
    });
  });
});
