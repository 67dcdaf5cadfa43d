import { DataSource } from 'typeorm';
import {
  AuditEventEntity,
  MemberRoleEntity,
  ScimTokenEntity,
  ScimUserEntity,
  TenantEntity,
} from '../src/database/entities';
import { factories, sessionCookie } from './support/factories';
import {
  entraUser,
  GROUP_SCHEMA,
  oktaUser,
  patchOp,
  scimClient,
  scimError,
  scimToken,
  USER_SCHEMA,
} from './support/scim';
import { useOrganisationSuite, useTestApp, useTwoInstances } from './support/suites';
import { describeWithRedis } from './support/test-redis';
import { withoutTable } from './support/without-table';
import { defineRole, eventsOf, heldRoles, setRoles } from './support/roles';
import { invalidRequest } from './support/documented-http';

/** SCIM 2.0 (docs/scim.md): one directory per organisation, at /scim/v2, with a bearer token. */
describe('SCIM 2.0', () => {
  const { t, factory, org } = useOrganisationSuite();
  let n = 0;
  const address = (name: string) => `${name}-${Date.now().toString(36)}-${n++}@example.com`;
  const client = async () => scimClient(t.http, (await scimToken(t, org.ownerCookie)).secret);
  const events = async (type: string) =>
    (await t.dataSource.getRepository(AuditEventEntity).find({ where: { type, tenantId: org.tenant.id } })).map(
      (event) => ({ ...event, data: JSON.parse(event.data) }),
    );
  const storedUser = (id: string) => t.dataSource.getRepository(ScimUserEntity).findOneBy({ id });
  /** RFC 7644 section 3.4.2's ListResponse of these resources, all on the first page. */
  const listOf = (...resources: object[]) => ({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  });

  describe('POST /api/org/scim/tokens', () => {
    it('an owner gets 201 with the secret once; only its SHA-256 hash is stored; scim.token_created is recorded', async () => {
      const res = await t.http.post('/api/org/scim/tokens').set('Cookie', org.ownerCookie);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        token: {
          id: expect.any(String),
          secret: expect.stringMatching(/^scim_[A-Za-z0-9_-]{43}$/),
          createdAt: expect.any(String),
        },
      });
      const row = await t.dataSource.getRepository(ScimTokenEntity).findOneByOrFail({ id: res.body.token.id });
      expect(row.tenantId).toBe(org.tenant.id);
      expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.secretHash).not.toContain(res.body.token.secret);
      expect(await events('scim.token_created')).toEqual([
        expect.objectContaining({ actorId: org.owner.id, targetType: 'scim_token', targetId: res.body.token.id }),
      ]);
    });

    it.each(['admin', 'member'])('"owners only": an %s gets 403', async (role) => {
      const cookie = await sessionCookie(t, await factory.member(org.tenant.id, { role }));
      const res = await t.http.post('/api/org/scim/tokens').set('Cookie', cookie);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Only owners can manage SCIM' });
    });

    it('no session: 401', async () => {
      const res = await t.http.post('/api/org/scim/tokens');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized' });
    });
  });

  describe('GET /api/org/scim/tokens', () => {
    it('lists the tokens without secrets; lastUsedAt is null until the token is used', async () => {
      const token = await scimToken(t, org.ownerCookie);
      const before = await t.http.get('/api/org/scim/tokens').set('Cookie', org.ownerCookie);
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ tokens: [{ id: token.id, createdAt: expect.any(String), lastUsedAt: null }] });
      expect((await scimClient(t.http, token.secret).get('/ServiceProviderConfig')).status).toBe(200);
      const after = await t.http.get('/api/org/scim/tokens').set('Cookie', org.ownerCookie);
      expect(after.body.tokens[0].lastUsedAt).toEqual(expect.any(String));
    });
  });

  describe('DELETE /api/org/scim/tokens/{id}', () => {
    it('revokes: 200, the secret is refused at once (401), scim.token_revoked is recorded', async () => {
      const token = await scimToken(t, org.ownerCookie);
      const scim = scimClient(t.http, token.secret);
      expect((await scim.get('/Users')).status).toBe(200);
      const res = await t.http.delete(`/api/org/scim/tokens/${token.id}`).set('Cookie', org.ownerCookie);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      const refused = await scim.get('/Users');
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(scimError(401));
      expect(await events('scim.token_revoked')).toHaveLength(1);
    });

    it("another organisation's token, or none: 404", async () => {
      const res = await t.http.delete('/api/org/scim/tokens/no-such-token').set('Cookie', org.ownerCookie);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Token not found' });
    });
  });

  describe('the bearer token', () => {
    it.each([
      ['missing', undefined],
      ['unknown', 'Bearer scim_not-a-token'],
      ['not Bearer', 'Basic dXNlcjpwYXNz'],
    ])('%s: 401 in SCIM’s error form, as application/scim+json', async (_what, header) => {
      const request = t.http.get('/scim/v2/Users');
      const res = await (header ? request.set('Authorization', header) : request);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(JSON.parse(res.text)).toEqual(scimError(401));
    });

    it.each(['suspended', 'deleted'])('a %s tenant: 403', async (status) => {
      const scim = await client();
      await t.dataSource.getRepository(TenantEntity).update({ id: org.tenant.id }, { status });
      const res = await scim.get('/Users');
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text)).toEqual(scimError(403));
    });

    it("two organisations' tokens never see each other's users", async () => {
      const mine = await client();
      const created = await mine.post('/Users', oktaUser(address('mine')));
      expect(created.status).toBe(201);
      expect(created.body.id).toEqual(JSON.parse(created.text).id);
      const other = await factory.tenant();
      const otherOwner = await factory.member(other.id, { role: 'owner' });
      const theirs = scimClient(t.http, (await scimToken(t, await sessionCookie(t, otherOwner))).secret);
      expect((await theirs.get(`/Users/${created.body.id}`)).status).toBe(404);
      expect(JSON.parse((await theirs.get('/Users')).text).totalResults).toBe(0);
      expect((await theirs.delete(`/Users/${created.body.id}`)).status).toBe(404);
      const foreignMember = await theirs.post('/Groups', {
        displayName: 'Theirs',
        members: [{ value: created.body.id }],
      });
      expect(foreignMember.status).toBe(400);
      expect(JSON.parse(foreignMember.text)).toEqual(scimError(400, 'invalidValue'));
      expect((await mine.get(`/Users/${created.body.id}`)).status).toBe(200);
    });
  });

  describe('GET /scim/v2/ServiceProviderConfig, /ResourceTypes, /Schemas', () => {
    it('patch and filter supported; bulk, sort, etag and changePassword not; oauthbearertoken', async () => {
      const res = await (await client()).get('/ServiceProviderConfig');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(JSON.parse(res.text)).toMatchObject({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
        patch: { supported: true },
        filter: { supported: true, maxResults: 100 },
        bulk: { supported: false },
        sort: { supported: false },
        etag: { supported: false },
        changePassword: { supported: false },
        authenticationSchemes: [
          expect.objectContaining({
            type: 'oauthbearertoken',
            name: expect.any(String),
            description: expect.any(String),
          }),
        ],
      });
    });

    it('any other path under /scim/v2: 404 in SCIM’s form (Bulk is not supported)', async () => {
      const res = await invalidRequest(async () => (await client()).post('/Bulk', { Operations: [] }));
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text)).toEqual(scimError(404));
    });

    it('ResourceTypes lists User and Group; Schemas has userName with caseExact false', async () => {
      const scim = await client();
      const types = JSON.parse((await scim.get('/ResourceTypes')).text);
      expect(types.Resources.map((type: { id: string }) => type.id)).toEqual(['User', 'Group']);
      const schemas = JSON.parse((await scim.get('/Schemas')).text);
      const user = schemas.Resources.find((schema: { id: string }) => schema.id === USER_SCHEMA);
      expect(user.attributes.find((a: { name: string }) => a.name === 'userName')).toMatchObject({
        caseExact: false,
        uniqueness: 'server',
        required: true,
      });
      expect((await scim.get(`/Schemas/${GROUP_SCHEMA}`)).status).toBe(200);
    });
  });

  describe('Okta’s sequence', () => {
    it('look-up, create, PUT, deactivate (boolean), reactivate, delete; the deactivated session is refused at once', async () => {
      const scim = await client();
      const person = await factory.user({ email: address('okta') });
      const lookUp = await scim.get(
        `/Users?filter=${encodeURIComponent(`userName eq "${person.email.toUpperCase()}"`)}&startIndex=1&count=100`,
      );
      expect(lookUp.status).toBe(200);
      expect(JSON.parse(lookUp.text)).toEqual({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
        totalResults: 0,
        startIndex: 1,
        itemsPerPage: 0,
        Resources: [],
      });

      // Create: the account in no organisation is adopted, as a member.
      const created = await scim.post('/Users', oktaUser(person.email));
      expect(created.status).toBe(201);
      const user = JSON.parse(created.text);
      expect(user).toEqual({
        schemas: [USER_SCHEMA],
        id: expect.any(String),
        externalId: expect.any(String),
        userName: person.email,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ primary: true, value: person.email, type: 'work' }],
        displayName: 'Ada Lovelace',
        locale: 'en-US',
        active: true,
        meta: {
          resourceType: 'User',
          created: expect.any(String),
          lastModified: expect.any(String),
          location: expect.stringMatching(new RegExp(`/scim/v2/Users/${user.id}$`)),
        },
      });
      expect(created.headers.location).toBe(user.meta.location);
      expect(await t.identity.findById(person.id)).toMatchObject({
        tenantId: org.tenant.id,
        role: 'member',
        userType: 'org',
      });
      expect(await events('member.joined')).toEqual([
        expect.objectContaining({
          actorId: expect.any(String),
          targetId: person.id,
          data: { via: 'scim', role: 'member' },
        }),
      ]);

      // The look-up finds it whatever the case.
      const found = JSON.parse(
        (await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${person.email.toUpperCase()}"`)}`)).text,
      );
      expect(found.totalResults).toBe(1);
      expect(found.Resources[0].id).toBe(user.id);

      // PUT: the whole resource.
      const put = await scim.put(`/Users/${user.id}`, {
        ...oktaUser(person.email),
        name: { givenName: 'Augusta', familyName: 'King' },
      });
      expect(put.status).toBe(200);
      expect(JSON.parse(put.text).name).toEqual({ givenName: 'Augusta', familyName: 'King' });
      expect(JSON.parse((await storedUser(user.id))!.attributes).name).toEqual({
        givenName: 'Augusta',
        familyName: 'King',
      });

      // Their session works, until Okta deactivates them.
      const cookie = await sessionCookie(t, { ...person, userType: 'org', tenantId: org.tenant.id, role: 'member' });
      expect((await t.http.get('/api/org/members').set('Cookie', cookie)).status).toBe(200);
      const deactivated = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', value: { active: false } }));
      expect(deactivated.status).toBe(200);
      expect(JSON.parse(deactivated.text).active).toBe(false);
      expect(await t.identity.findById(person.id)).toMatchObject({ tenantId: null, role: null });
      expect(await storedUser(user.id)).toMatchObject({ active: 0, role: 'member' });
      const refused = await t.http.get('/api/org/members').set('Cookie', cookie);
      expect(refused.status).toBe(403);
      expect(await events('member.deactivated')).toHaveLength(1);

      // Reactivated with their role.
      const reactivated = await scim.put(`/Users/${user.id}`, { ...oktaUser(person.email), active: true });
      expect(reactivated.status).toBe(200);
      expect(await t.identity.findById(person.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
      expect(await events('member.reactivated')).toHaveLength(1);

      // Delete: detached, the resource gone, the account kept.
      const deleted = await scim.delete(`/Users/${user.id}`);
      expect(deleted.status).toBe(204);
      expect(await storedUser(user.id)).toBeNull();
      expect(await t.identity.findById(person.id)).toMatchObject({ email: person.email, tenantId: null, role: null });
      expect((await scim.get(`/Users/${user.id}`)).status).toBe(404);
      expect(await events('member.removed')).toEqual([
        expect.objectContaining({ data: { via: 'scim', role: 'member' } }),
      ]);
    });

    it('a new address: the account is made in the identity store, as a member', async () => {
      const scim = await client();
      const email = address('New.Person');
      const created = await scim.post('/Users', oktaUser(email));
      expect(created.status).toBe(201);
      const [account] = await t.identity.findByEmail(email);
      expect(account).toMatchObject({
        email: email.toLowerCase(),
        tenantId: org.tenant.id,
        role: 'member',
        userType: 'org',
      });
      expect(await storedUser(JSON.parse(created.text).id)).toMatchObject({
        userId: account.id,
        active: 1,
      });
    });
  });

  describe('Entra ID’s sequence', () => {
    it('look-up, create (scim+json), "False" string deactivation, "True" reactivation, group push, member removed, delete', async () => {
      const scim = await client();
      const email = address('entra');
      const lookUp = await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
      expect(JSON.parse(lookUp.text).totalResults).toBe(0);
      const created = await scim.post('/Users', entraUser(email));
      expect(created.status).toBe(201);
      const user = JSON.parse(created.text);
      expect(user.schemas).toEqual([USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']);
      expect(user['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({ department: 'Engineering' });
      const [account] = await t.identity.findByEmail(email);

      // Entra's attribute updates: op names capitalised, paths with filters.
      const updated = await scim.patch(
        `/Users/${user.id}`,
        patchOp(
          { op: 'Replace', path: 'displayName', value: 'Grace B. Hopper' },
          { op: 'Add', path: 'name.givenName', value: 'Grace B.' },
          {
            op: 'Replace',
            path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
            value: 'Navy',
          },
        ),
      );
      expect(updated.status).toBe(200);
      expect(JSON.parse(updated.text)).toMatchObject({
        displayName: 'Grace B. Hopper',
        name: { givenName: 'Grace B.', familyName: 'Hopper' },
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Navy' },
      });

      const off = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
      expect(off.status).toBe(200);
      expect(JSON.parse(off.text).active).toBe(false);
      expect(await t.identity.findById(account.id)).toMatchObject({ tenantId: null });
      const on = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', value: { active: 'True' } }));
      expect(on.status).toBe(200);
      expect(await t.identity.findById(account.id)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });

      // Group push with members, then Entra's remove path.
      const other = JSON.parse((await scim.post('/Users', entraUser(address('entra2')))).text);
      const group = await scim.post('/Groups', {
        schemas: [GROUP_SCHEMA],
        externalId: 'entra-group',
        displayName: 'Engineering',
        members: [{ value: user.id }, { value: other.id }],
      });
      expect(group.status).toBe(201);
      const shown = JSON.parse(group.text);
      expect(shown).toMatchObject({
        schemas: [GROUP_SCHEMA],
        displayName: 'Engineering',
        members: [
          { value: user.id, display: email },
          { value: other.id, display: other.userName },
        ],
        meta: { resourceType: 'Group', location: expect.stringMatching(new RegExp(`/scim/v2/Groups/${shown.id}$`)) },
      });
      const found = JSON.parse(
        (
          await scim.get(
            `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "engineering"')}`,
          )
        ).text,
      );
      expect(found.totalResults).toBe(1);
      expect(found.Resources[0].members).toBeUndefined();
      const removed = await scim.patch(
        `/Groups/${shown.id}`,
        patchOp({ op: 'Remove', path: `members[value eq "${other.id}"]` }),
      );
      expect(removed.status).toBe(200);
      expect(JSON.parse(removed.text).members).toEqual([expect.objectContaining({ value: user.id })]);
      const added = await scim.patch(
        `/Groups/${shown.id}`,
        patchOp({ op: 'Add', path: 'members', value: [{ value: other.id }] }),
      );
      expect(JSON.parse(added.text).members).toHaveLength(2);
      const removedByValue = await scim.patch(
        `/Groups/${shown.id}`,
        patchOp({ op: 'Remove', path: 'members', value: [{ value: user.id }] }),
      );
      expect(JSON.parse(removedByValue.text).members).toEqual([expect.objectContaining({ value: other.id })]);
      expect(await events('scim.group_created')).toHaveLength(1);
      expect(await events('scim.group_updated')).toHaveLength(3);

      expect((await scim.delete(`/Users/${user.id}`)).status).toBe(204);
      expect(JSON.parse((await scim.get(`/Groups/${shown.id}`)).text).members).toEqual([
        expect.objectContaining({ value: other.id }),
      ]);
      expect((await scim.delete(`/Groups/${shown.id}`)).status).toBe(204);
      expect((await scim.get(`/Groups/${shown.id}`)).status).toBe(404);
    });
  });

  describe('GET /scim/v2/Users', () => {
    it('filters on externalId, emails.value and id, joined by and; pages 1-based with count capped at 100', async () => {
      const scim = await client();
      const emails = [address('a'), address('b'), address('c')];
      const ids: string[] = [];
      for (const email of emails)
        ids.push(JSON.parse((await scim.post('/Users', oktaUser(email, { externalId: `ext-${email}` }))).text).id);
      const query = async (filter: string) =>
        JSON.parse((await scim.get(`/Users?filter=${encodeURIComponent(filter)}`)).text).Resources.map(
          (u: { id: string }) => u.id,
        );
      expect(await query(`externalId eq "ext-${emails[1]}"`)).toEqual([ids[1]]);
      expect(await query(`emails.value eq "${emails[2].toUpperCase()}"`)).toEqual([ids[2]]);
      expect(await query(`id eq "${ids[0]}" and userName eq "${emails[0]}"`)).toEqual([ids[0]]);
      expect(await query(`id eq "${ids[0]}" and userName eq "${emails[1]}"`)).toEqual([]);
      const page = JSON.parse((await scim.get('/Users?startIndex=2&count=1')).text);
      expect(page).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
      expect(page.Resources[0].id).toBe(ids[1]);
      expect(JSON.parse((await scim.get('/Users?count=1000')).text).itemsPerPage).toBe(3);
    });

    it.each([
      'userName sw "a"',
      'title eq "x"',
      'userName eq "a" or userName eq "b"',
      'not (userName eq "a")',
      'userName eq',
    ])('"anything else 400 invalidFilter": %s', async (filter) => {
      const res = await (await client()).get(`/Users?filter=${encodeURIComponent(filter)}`);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual(scimError(400, 'invalidFilter'));
    });
  });

  describe('POST /scim/v2/Users', () => {
    it('a userName the organisation has (in another case): 409 uniqueness', async () => {
      const scim = await client();
      const email = address('dup');
      expect((await scim.post('/Users', oktaUser(email))).status).toBe(201);
      const res = await scim.post('/Users', oktaUser(email.toUpperCase()));
      expect(res.status).toBe(409);
      expect(JSON.parse(res.text)).toEqual(scimError(409, 'uniqueness'));
    });

    it('an address of another organisation’s member: 409 uniqueness, never naming it', async () => {
      const other = await factory.tenant({ name: 'Secret Corp' });
      const member = await factory.member(other.id, { role: 'member' });
      const res = await (await client()).post('/Users', oktaUser(member.email));
      expect(res.status).toBe(409);
      expect(JSON.parse(res.text)).toEqual(scimError(409, 'uniqueness'));
      expect(res.text).not.toContain(other.id);
      expect(res.text).not.toContain('Secret Corp');
      expect(await t.identity.findById(member.id)).toMatchObject({ tenantId: other.id });
    });

    it.each([
      ['no userName', { schemas: [USER_SCHEMA] }],
      ['a userName that is not an address, and no e-mail', { userName: 'not-an-address' }],
      ['active neither boolean nor "True"/"False"', { userName: 'x@example.com', active: 'yes' }],
      ['a body that is not an object', []],
    ])('%s: 400 invalidValue or invalidSyntax', async (_what, body) => {
      const res = await invalidRequest(async () => (await client()).post('/Users', body));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual(scimError(400, expect.stringMatching(/^invalid(Value|Syntax)$/)));
    });

    it('reads application/json as well as application/scim+json', async () => {
      const token = await scimToken(t, org.ownerCookie);
      const res = await t.http
        .post('/scim/v2/Users')
        .set('Authorization', `Bearer ${token.secret}`)
        .send(oktaUser(address('json')));
      expect(res.status).toBe(201);
    });

    it('"adopted when it has one without an organisation": adopted while joining another by invitation; in one, one refused', async () => {
      const scim = await client();
      const other = await factory.tenant({ status: 'active' });
      const people = await Promise.all(Array.from({ length: 20 }, () => factory.user({ email: address('torn') })));
      await Promise.all(
        people.map(async (person) => {
          const invitation = await factory.invitation({ tenantId: other.id, email: person.email });
          const cookie = await sessionCookie(t, person);
          const [adopted, joined] = await Promise.all([
            scim.post('/Users', oktaUser(person.email)),
            t.http.post(`/api/invitations/${invitation.id}/join`).set('Cookie', cookie),
          ]);
          const scimWon = adopted.status === 201;
          expect([adopted.status, joined.status].sort()).toEqual(scimWon ? [201, 409] : [200, 409]);
          if (!scimWon) expect(JSON.parse(adopted.text)).toEqual(scimError(409, 'uniqueness'));
          expect(await t.identity.findById(person.id)).toMatchObject({
            tenantId: scimWon ? org.tenant.id : other.id,
          });
          const resources = JSON.parse(
            (await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${person.email}"`)}`)).text,
          );
          expect(resources.totalResults).toBe(scimWon ? 1 : 0);
        }),
      );
    });

    it('a new address created inactive: an account in no organisation; activating it makes the member', async () => {
      const scim = await client();
      const email = address('inactive');
      const created = await scim.post('/Users', oktaUser(email, { active: false }));
      expect(created.status).toBe(201);
      const resource = JSON.parse(created.text);
      expect(resource).toMatchObject({ userName: email, active: false });
      const row = (await storedUser(resource.id))!;
      expect(row).toMatchObject({ active: 0, role: 'member' });
      const [account] = await t.identity.findByEmail(email);
      expect(account).toMatchObject({ id: row.userId, tenantId: null });
      expect((await events('member.joined')).filter((event) => event.targetId === row.userId)).toEqual([]);

      const activated = await scim.patch(
        `/Users/${resource.id}`,
        patchOp({ op: 'replace', path: 'active', value: true }),
      );
      expect(activated.status).toBe(200);
      expect(JSON.parse(activated.text).active).toBe(true);
      expect(await t.identity.findById(row.userId)).toMatchObject({ tenantId: org.tenant.id, role: 'member' });
      expect((await events('member.reactivated')).filter((event) => event.targetId === row.userId)).toHaveLength(1);
    });

    it('20 parallel creates of one userName give one member', async () => {
      const scim = await client();
      const email = address('parallel');
      const answers = await Promise.all(Array.from({ length: 20 }, () => scim.post('/Users', oktaUser(email))));
      expect(answers.map((res) => res.status).sort()).toEqual([201, ...Array(19).fill(409)]);
      expect(await t.dataSource.getRepository(ScimUserEntity).countBy({ tenantId: org.tenant.id })).toBe(1);
      expect(await t.identity.findByEmail(email)).toHaveLength(1);
    });
  });

  describe('PATCH /scim/v2/Users/{id}', () => {
    it('a deactivation and a delete take the custom roles away with the membership, in its transaction; the events name them', async () => {
      const scim = await client();
      const defined = await t.http
        .post('/api/org/roles')
        .set('Cookie', org.ownerCookie)
        .send({ key: 'recruiter', name: 'Recruiter', permissions: ['invitations:create'] });
      expect(defined.status).toBe(201);
      const held = (userId: string) =>
        t.dataSource.getRepository(MemberRoleEntity).countBy({ tenantId: org.tenant.id, userId });
      const give = (userId: string) =>
        t.http
          .put(`/api/org/members/${userId}/roles`)
          .set('Cookie', org.ownerCookie)
          .send({ roles: ['recruiter'] });
      const a = JSON.parse((await scim.post('/Users', oktaUser(address('roles-a')))).text);
      const second = JSON.parse((await scim.post('/Users', oktaUser(address('roles-b')))).text);
      for (const resource of [a, second]) {
        const userId = (await storedUser(resource.id))!.userId;
        expect((await give(userId)).status).toBe(200);
        expect(await held(userId)).toBe(1);
      }
      const deactivated = await scim.patch(`/Users/${a.id}`, patchOp({ op: 'replace', path: 'active', value: false }));
      expect(deactivated.status).toBe(200);
      expect(await held((await storedUser(a.id))!.userId)).toBe(0);
      const [deactivation] = await events('member.deactivated');
      expect(deactivation.data).toMatchObject({ role: 'member', roles: ['recruiter'] });
      const secondUser = (await storedUser(second.id))!.userId;
      expect((await scim.delete(`/Users/${second.id}`)).status).toBe(204);
      expect(await held(secondUser)).toBe(0);
      const removed = (await events('member.removed')).find((event) => event.targetId === secondUser);
      expect(removed?.data).toMatchObject({ role: 'member', roles: ['recruiter'] });
    });

    it('a new userName and primary e-mail change the stored address; one held by another account: 409', async () => {
      const scim = await client();
      const email = address('rename');
      const user = JSON.parse((await scim.post('/Users', oktaUser(email))).text);
      const renamed = address('renamed');
      const res = await scim.patch(
        `/Users/${user.id}`,
        patchOp(
          { op: 'replace', path: 'userName', value: renamed },
          { op: 'replace', path: 'emails[type eq "work"].value', value: renamed },
        ),
      );
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).userName).toBe(renamed);
      const stored = (await storedUser(user.id))!;
      expect(await t.identity.findById(stored.userId)).toMatchObject({ email: renamed.toLowerCase() });
      const taken = await factory.user({ email: address('taken') });
      const refused = await scim.patch(
        `/Users/${user.id}`,
        patchOp({ op: 'replace', value: { userName: taken.email, emails: [{ value: taken.email, primary: true }] } }),
      );
      expect(refused.status).toBe(409);
      expect(JSON.parse(refused.text)).toEqual(scimError(409, 'uniqueness'));
      expect(await t.identity.findById(stored.userId)).toMatchObject({ email: renamed.toLowerCase() });
    });

    it('one account per address: of parallel changes to one userName, each loser (409) leaves the store’s address as it was', async () => {
      const scim = await client();
      const users = [];
      for (let i = 0; i < 6; i++) users.push(JSON.parse((await scim.post('/Users', oktaUser(address('rival')))).text));
      const wanted = address('wanted');
      // All take the userName, each with a new address of its own.
      const answers = await Promise.all(
        users.map((user) =>
          scim.patch(
            `/Users/${user.id}`,
            patchOp({ op: 'replace', value: { userName: wanted, emails: [{ value: address('new'), primary: true }] } }),
          ),
        ),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const user of users) {
        const stored = (await storedUser(user.id))!;
        expect(await t.identity.findById(stored.userId)).toMatchObject({ email: stored.emailKey });
      }
    });

    it.each([
      ['no Operations', { schemas: [] }, 'invalidSyntax'],
      ['an unknown op', patchOp({ op: 'move', path: 'active' }), 'invalidSyntax'],
      ['a remove without path', patchOp({ op: 'remove' }), 'noTarget'],
      ['an unreadable path', patchOp({ op: 'replace', path: 'emails[type eq', value: 'x' }), 'invalidPath'],
    ])('%s: 400 %s', async (_what, body, scimType) => {
      const scim = await client();
      const user = JSON.parse((await scim.post('/Users', oktaUser(address('bad-patch')))).text);
      const res = await scim.patch(`/Users/${user.id}`, body);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual(scimError(400, scimType));
    });

    it('an unknown id: 404', async () => {
      const res = await (await client()).patch('/Users/nope', patchOp({ op: 'replace', value: { active: false } }));
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text)).toEqual(scimError(404));
    });
  });

  describe('PATCH /scim/v2/Groups/{id}', () => {
    it('the group and the members it loses change in one transaction: a removal that fails changes nothing', async () => {
      const scim = await client();
      const users = [];
      for (const name of ['stays', 'leaves'])
        users.push(JSON.parse((await scim.post('/Users', oktaUser(address(name)))).text));
      const group = JSON.parse(
        (await scim.post('/Groups', { displayName: 'Team', members: users.map(({ id }) => ({ value: id })) })).text,
      );
      const removal = patchOp({ op: 'remove', path: `members[value eq "${users[1].id}"]` });
      const failed = await refusingDeletes(t.dataSource, 'scim_group_members', () =>
        scim.patch(`/Groups/${group.id}`, removal),
      );
      expect(failed.status).toBe(500);
      const after = JSON.parse((await scim.get(`/Groups/${group.id}`)).text);
      expect(after.members.map(({ value }: { value: string }) => value).sort()).toEqual(
        users.map(({ id }) => id).sort(),
      );
      expect(after.meta.lastModified).toBe(group.meta.lastModified);
      expect(await events('scim.group_updated')).toEqual([]);
      expect((await scim.patch(`/Groups/${group.id}`, removal)).status).toBe(200);
      expect(JSON.parse((await scim.get(`/Groups/${group.id}`)).text).members).toEqual([
        expect.objectContaining({ value: users[0].id }),
      ]);
    });
  });

  describe('the last-owner guard', () => {
    it('the last owner is never detached or demoted by SCIM: 409 mutability, audited', async () => {
      const scim = await client();
      const owner = JSON.parse((await scim.post('/Users', oktaUser(org.owner.email))).text);
      expect(await t.identity.findById(org.owner.id)).toMatchObject({ role: 'owner', tenantId: org.tenant.id });
      const off = await scim.patch(`/Users/${owner.id}`, patchOp({ op: 'replace', path: 'active', value: false }));
      expect(off.status).toBe(409);
      expect(JSON.parse(off.text)).toEqual(scimError(409, 'mutability'));
      const deleted = await scim.delete(`/Users/${owner.id}`);
      expect(deleted.status).toBe(409);
      expect(await t.identity.findById(org.owner.id)).toMatchObject({ role: 'owner', tenantId: org.tenant.id });
      expect(await storedUser(owner.id)).toMatchObject({ active: 1 });

      // A group that maps to admin would demote the last owner.
      const mapped = await t.http
        .put('/api/org/scim/role-mapping')
        .set('Cookie', org.ownerCookie)
        .send({ Admins: 'admin' });
      expect(mapped.status).toBe(409);
      expect(mapped.body).toEqual({ error: expect.any(String), scimType: 'mutability' });
      const refusals = await events('scim.change_refused');
      expect(refusals).toHaveLength(3);
      expect(refusals[0]).toMatchObject({ targetId: org.owner.id, data: { reason: 'last_owner' } });
    });

    type Removal = 'deactivate' | 'delete' | 'leave the owners group';
    it.each<[Removal, Removal]>([
      ['deactivate', 'delete'],
      ['delete', 'delete'],
      ['deactivate', 'deactivate'],
      ['leave the owners group', 'leave the owners group'],
      ['leave the owners group', 'deactivate'],
    ])(
      '"never" under concurrency: every owner removed at once (%s, %s, in turn): all but one ' +
        'change go through, one is refused 409 mutability; one owner is left',
      async (...removals) => {
        const scim = await client();
        const others = [];
        for (let i = 0; i < 5; i++) others.push(await factory.member(org.tenant.id, { role: 'owner' }));
        // Six owners that SCIM manages, all in the group that maps to owner: the mapping first,
        // while the organisation's first owner is not SCIM's, then the group, then that owner.
        const owners = [];
        for (const person of others) owners.push(JSON.parse((await scim.post('/Users', oktaUser(person.email))).text));
        const mapped = await t.http
          .put('/api/org/scim/role-mapping')
          .set('Cookie', org.ownerCookie)
          .send({ Owners: 'owner' });
        expect(mapped.status).toBe(200);
        const group = JSON.parse(
          (await scim.post('/Groups', { displayName: 'Owners', members: owners.map(({ id }) => ({ value: id })) }))
            .text,
        );
        owners.unshift(JSON.parse((await scim.post('/Users', oktaUser(org.owner.email))).text));
        const people = [org.owner, ...others];
        const added = await scim.patch(
          `/Groups/${group.id}`,
          patchOp({ op: 'add', path: 'members', value: [{ value: owners[0].id }] }),
        );
        expect(added.status).toBe(200);
        expect((await t.identity.countTenantMembers(org.tenant.id)).owner).toBe(6);

        const remove = (removal: Removal, id: string) =>
          removal === 'deactivate'
            ? scim.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: false }))
            : removal === 'delete'
              ? scim.delete(`/Users/${id}`)
              : scim.patch(`/Groups/${group.id}`, patchOp({ op: 'remove', path: `members[value eq "${id}"]` }));
        const answers = await Promise.all(owners.map(({ id }, index) => remove(removals[index % 2], id)));
        const refused = answers.filter((res) => res.status === 409);
        expect(refused).toHaveLength(1);
        expect(JSON.parse(refused[0].text)).toEqual(scimError(409, 'mutability'));
        expect(answers.filter((res) => res.status === 200 || res.status === 204)).toHaveLength(5);
        expect((await t.identity.countTenantMembers(org.tenant.id)).owner).toBe(1);
        const kept = answers.indexOf(refused[0]);
        expect(await t.identity.findById(people[kept].id)).toMatchObject({ tenantId: org.tenant.id, role: 'owner' });
        expect(await storedUser(owners[kept].id)).toMatchObject({ active: 1 });
        expect(await events('scim.change_refused')).toHaveLength(1);
      },
    );
  });

  describe('PUT /api/org/scim/role-mapping', () => {
    it('a SCIM member’s role is the highest that their groups map to, else member; recomputed on group and mapping changes', async () => {
      const scim = await client();
      // A second owner managed by SCIM keeps the organisation owned.
      const person = JSON.parse((await scim.post('/Users', oktaUser(address('mapped')))).text);
      const account = (await storedUser(person.id))!.userId;
      const mapping = await t.http
        .put('/api/org/scim/role-mapping')
        .set('Cookie', org.ownerCookie)
        .send({ Admins: 'admin', Owners: 'owner' });
      expect(mapping.status).toBe(200);
      expect(mapping.body).toEqual({ success: true, mapping: { Admins: 'admin', Owners: 'owner' } });
      const admins = JSON.parse(
        (await scim.post('/Groups', { displayName: 'admins', members: [{ value: person.id }] })).text,
      );
      expect(await t.identity.findById(account)).toMatchObject({ role: 'admin' });
      const owners = JSON.parse(
        (await scim.post('/Groups', { displayName: 'Owners', members: [{ value: person.id }] })).text,
      );
      expect(await t.identity.findById(account)).toMatchObject({ role: 'owner' });
      await scim.patch(`/Groups/${owners.id}`, patchOp({ op: 'remove', path: `members[value eq "${person.id}"]` }));
      expect(await t.identity.findById(account)).toMatchObject({ role: 'admin' });
      expect(
        (await t.http.put('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie).send({ Owners: 'owner' }))
          .status,
      ).toBe(200);
      expect(await t.identity.findById(account)).toMatchObject({ role: 'member' });
      expect((await t.http.get('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie)).body).toEqual({
        mapping: { Owners: 'owner' },
      });
      expect(admins.id).toEqual(expect.any(String));
      expect(await events('scim.role_mapping_updated')).toHaveLength(2);
    });

    it('a group may map custom roles too: held exactly while a group maps them; roles no group maps stay as given', async () => {
      const scim = await client();
      for (const [key, permissions] of [
        ['recruiter', ['invitations:create']],
        ['auditor', ['audit:read']],
        ['analyst', ['members:read']],
      ] as const)
        expect((await defineRole(t, org.ownerCookie, key, [...permissions])).status).toBe(201);
      const person = JSON.parse((await scim.post('/Users', oktaUser(address('custom')))).text);
      const account = (await storedUser(person.id))!.userId;
      // Given by hand, and mapped by no group: SCIM leaves it alone.
      expect((await setRoles(t, org.ownerCookie, account, ['analyst'])).status).toBe(200);
      const put = (body: object) => t.http.put('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie).send(body);
      const mapping = await put({ Recruiters: { roles: ['recruiter'] }, Leads: { role: 'admin', roles: ['auditor'] } });
      expect([mapping.status, mapping.body]).toEqual([
        200,
        {
          success: true,
          mapping: {
            Recruiters: { role: 'member', roles: ['recruiter'] },
            Leads: { role: 'admin', roles: ['auditor'] },
          },
        },
      ]);
      const recruiters = JSON.parse(
        (await scim.post('/Groups', { displayName: 'Recruiters', members: [{ value: person.id }] })).text,
      );
      expect(await heldRoles(t, org.tenant.id)).toEqual([`${account}:analyst`, `${account}:recruiter`]);
      expect(await t.identity.findById(account)).toMatchObject({ role: 'member' });
      const [changed] = await eventsOf(t, org.tenant.id, 'member.roles_changed').then((all) => all.slice(-1));
      expect(changed.data).toEqual({ before: ['analyst'], after: ['analyst', 'recruiter'] });
      await scim.post('/Groups', { displayName: 'leads', members: [{ value: person.id }] });
      expect(await heldRoles(t, org.tenant.id)).toEqual([
        `${account}:analyst`,
        `${account}:auditor`,
        `${account}:recruiter`,
      ]);
      expect(await t.identity.findById(account)).toMatchObject({ role: 'admin' });
      await scim.patch(`/Groups/${recruiters.id}`, patchOp({ op: 'remove', path: `members[value eq "${person.id}"]` }));
      expect(await heldRoles(t, org.tenant.id)).toEqual([`${account}:analyst`, `${account}:auditor`]);
      // The mapping changes: auditor is no longer mapped, so it stays as held; recruiter, mapped to Leads now, is given.
      expect((await put({ Leads: { role: 'admin', roles: ['recruiter'] } })).status).toBe(200);
      expect(await heldRoles(t, org.tenant.id)).toEqual([
        `${account}:analyst`,
        `${account}:auditor`,
        `${account}:recruiter`,
      ]);
      // A role deleted with reassignTo: the groups that mapped it map the target instead.
      expect(
        (await t.http.delete('/api/org/roles/recruiter?reassignTo=auditor').set('Cookie', org.ownerCookie)).status,
      ).toBe(200);
      expect((await t.http.get('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie)).body).toEqual({
        mapping: { Leads: { role: 'admin', roles: ['auditor'] } },
      });
    });

    it('a custom role the organisation does not define: 422 UNKNOWN_ROLE, the mapping as it was', async () => {
      const put = (body: object) => t.http.put('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie).send(body);
      expect((await put({ Admins: 'admin' })).status).toBe(200);
      const res = await put({ Recruiters: { roles: ['nobody'] } });
      expect([res.status, res.body]).toEqual([422, { success: false, error: 'UNKNOWN_ROLE', role: 'nobody' }]);
      expect((await t.http.get('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie)).body).toEqual({
        mapping: { Admins: 'admin' },
      });
    });

    it('replaced in one transaction: a replacement that fails keeps the mapping as it was', async () => {
      const put = (body: object) => t.http.put('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie).send(body);
      expect((await put({ Admins: 'admin' })).status).toBe(200);
      const failed = await withoutTable(t.dataSource, 'audit_events', () => put({ Others: 'owner' }));
      expect(failed.status).toBe(500);
      expect((await t.http.get('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie)).body).toEqual({
        mapping: { Admins: 'admin' },
      });
    });

    it.each([
      [['admin']],
      [{ Admins: 'superuser' }],
      [{ '': 'admin' }],
      [{ Recruiters: { roles: 'recruiter' } }],
      [{ Recruiters: { role: 'owner' } }],
      [{ Recruiters: { roles: ['admin'] } }],
      [{ Recruiters: { roles: ['x', 'x'] } }],
      [{ Recruiters: { roles: [], extra: true } }],
    ])('%j: 400', async (body) => {
      const res = await invalidRequest(() =>
        t.http.put('/api/org/scim/role-mapping').set('Cookie', org.ownerCookie).send(body),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringMatching(/^The role mapping/) });
    });
  });

  describe('limits', () => {
    it('a body up to 1 MB is read (a group of many members); above, 413 in SCIM’s form', async () => {
      const scim = await client();
      const user = JSON.parse((await scim.post('/Users', oktaUser(address('big')))).text);
      // Some 400 KB, beyond the rest of the API's 100 KB: read, and judged member by member.
      const members = [
        { value: user.id },
        ...Array.from({ length: 8_000 }, (_, i) => ({ value: `not-a-user-${i}-${'x'.repeat(20)}` })),
      ];
      const big = await scim.post('/Groups', { displayName: 'Everyone', members });
      expect(big.status).toBe(400);
      expect(JSON.parse(big.text)).toEqual({
        ...scimError(400, 'invalidValue'),
        detail: expect.stringContaining('not-a-user-0-'),
      });
      const tooBig = await scim.post('/Users', oktaUser(address('huge'), { title: 'x'.repeat(1100 * 1024) }));
      expect(tooBig.status).toBe(413);
      expect(JSON.parse(tooBig.text)).toEqual(scimError(413));
    });
  });

  describe('attributes and excludedAttributes (RFC 7644 section 3.9)', () => {
    const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
    const withUser = async () => {
      const scim = await client();
      const email = address('projected');
      const created = await scim.post('/Users', entraUser(email));
      expect(created.status).toBe(201);
      return { scim, email, user: JSON.parse(created.text) };
    };

    it('GET /Users/{id}?attributes=userName: "replaces the default set", id and schemas always there', async () => {
      const { scim, email, user } = await withUser();
      const res = await scim.get(`/Users/${user.id}?attributes=userName`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ schemas: user.schemas, id: user.id, userName: email });
    });

    it('GET /Users/{id}?excludedAttributes=name: "removes from the default set"; id and schemas are never removed', async () => {
      const { scim, user } = await withUser();
      const { name: _name, ...rest } = user;
      const res = await scim.get(`/Users/${user.id}?excludedAttributes=name,id,schemas`);
      expect(res.status).toBe(200);
      // meta.location names the address each request came to (another port each time).
      expect(JSON.parse(res.text)).toEqual({ ...rest, meta: { ...rest.meta, location: expect.any(String) } });
    });

    it('sub-attributes (name.givenName, emails.value), names in any case, with the schema URN in front', async () => {
      const { scim, email, user } = await withUser();
      const asked = [
        'NAME.givenname',
        'emails.value',
        `${USER_SCHEMA}:displayName`,
        `${ENTERPRISE.toLowerCase()}:DEPARTMENT`,
      ].join(',');
      const res = await scim.get(`/Users/${user.id}?attributes=${encodeURIComponent(asked)}`);
      expect(JSON.parse(res.text)).toEqual({
        schemas: user.schemas,
        id: user.id,
        name: { givenName: 'Grace' },
        emails: [{ value: email }],
        displayName: 'Grace Hopper',
        [ENTERPRISE]: { department: 'Engineering' },
      });
      const without = await scim.get(`/Users/${user.id}?excludedAttributes=${encodeURIComponent('emails.type,meta')}`);
      expect(JSON.parse(without.text)).toMatchObject({ emails: [{ primary: true, value: email }] });
      expect(JSON.parse(without.text)).not.toHaveProperty('meta');
    });

    it('GET /Users: each resource of the ListResponse', async () => {
      const { scim, email, user } = await withUser();
      const res = await scim.get(
        `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&attributes=userName,active`,
      );
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual(
        listOf({ schemas: user.schemas, id: user.id, userName: email, active: true }),
      );
    });

    it('the answers of POST, PUT and PATCH', async () => {
      const scim = await client();
      const email = address('projected-write');
      const created = await scim.post('/Users?attributes=userName', oktaUser(email));
      expect(created.status).toBe(201);
      const { id } = JSON.parse(created.text);
      expect(JSON.parse(created.text)).toEqual({ schemas: [USER_SCHEMA], id, userName: email });
      expect(created.headers.location).toMatch(new RegExp(`/scim/v2/Users/${id}$`));
      const put = await scim.put(`/Users/${id}?excludedAttributes=meta,name,emails`, {
        ...oktaUser(email),
        title: 'Engineer',
      });
      expect(put.status).toBe(200);
      expect(JSON.parse(put.text)).toEqual({
        schemas: [USER_SCHEMA],
        id,
        externalId: expect.any(String),
        userName: email,
        displayName: 'Ada Lovelace',
        locale: 'en-US',
        title: 'Engineer',
        active: true,
      });
      const patched = await scim.patch(
        `/Users/${id}?attributes=title`,
        patchOp({ op: 'replace', path: 'title', value: 'Lead' }),
      );
      expect(patched.status).toBe(200);
      expect(JSON.parse(patched.text)).toEqual({ schemas: [USER_SCHEMA], id, title: 'Lead' });
      expect(JSON.parse((await storedUser(id))!.attributes).title).toBe('Lead');
    });

    it('Groups: GET by id, GET lists, POST, PUT and PATCH', async () => {
      const scim = await client();
      const member = JSON.parse((await scim.post('/Users', oktaUser(address('grouped')))).text);
      const name = `Projected ${n++}`;
      const created = await scim.post('/Groups?attributes=members.value', {
        displayName: name,
        members: [{ value: member.id }],
      });
      expect(created.status).toBe(201);
      const { id } = JSON.parse(created.text);
      expect(JSON.parse(created.text)).toEqual({ schemas: [GROUP_SCHEMA], id, members: [{ value: member.id }] });
      expect(JSON.parse((await scim.get(`/Groups/${id}?attributes=DisplayName`)).text)).toEqual({
        schemas: [GROUP_SCHEMA],
        id,
        displayName: name,
      });
      const listed = await scim.get(
        `/Groups?filter=${encodeURIComponent(`displayName eq "${name}"`)}&excludedAttributes=meta,members.$ref`,
      );
      expect(JSON.parse(listed.text).Resources).toEqual([
        { schemas: [GROUP_SCHEMA], id, displayName: name, members: [{ value: member.id, display: member.userName }] },
      ]);
      const put = await scim.put(`/Groups/${id}?attributes=displayName`, { displayName: `${name} B`, members: [] });
      expect(JSON.parse(put.text)).toEqual({ schemas: [GROUP_SCHEMA], id, displayName: `${name} B` });
      const patched = await scim.patch(
        `/Groups/${id}?excludedAttributes=members,meta`,
        patchOp({ op: 'add', path: 'members', value: [{ value: member.id }] }),
      );
      expect(JSON.parse(patched.text)).toEqual({ schemas: [GROUP_SCHEMA], id, displayName: `${name} B` });
      expect(JSON.parse((await scim.get(`/Groups/${id}`)).text).members).toEqual([
        expect.objectContaining({ value: member.id }),
      ]);
    });

    it('a name that is not an attribute name: 400 invalidValue, before anything is written', async () => {
      const scim = await client();
      const email = address('bad-attributes');
      const res = await scim.post(`/Users?attributes=${encodeURIComponent('emails[type eq "work"]')}`, oktaUser(email));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual(scimError(400, 'invalidValue'));
      expect(await t.identity.findByEmail(email)).toEqual([]);
    });
  });

  describe('GET /scim/v2/ServiceProviderConfig', () => {
    it('"maxPayloadSize" only inside bulk (RFC 7643 section 5)', async () => {
      const config = JSON.parse((await (await client()).get('/ServiceProviderConfig')).text);
      expect(config).not.toHaveProperty('maxPayloadSize');
      expect(config.bulk).toEqual({ supported: false, maxOperations: 0, maxPayloadSize: 0 });
    });
  });

  describe('POST /scim/v2/Users/.search', () => {
    const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

    it('a SearchRequest: "the same filters and answers as GET", paging and projection included', async () => {
      const scim = await client();
      const emails = [address('search'), address('search')];
      const ids: string[] = [];
      for (const email of emails) ids.push(JSON.parse((await scim.post('/Users', oktaUser(email))).text).id);
      const filter = `userName eq "${emails[0].toUpperCase()}" or userName eq "${emails[1]}"`;
      const refused = await scim.post('/Users/.search', { schemas: [SEARCH_REQUEST], filter });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toEqual(scimError(400, 'invalidFilter'));

      const one = `userName eq "${emails[1].toUpperCase()}"`;
      const res = await scim.post('/Users/.search', {
        schemas: [SEARCH_REQUEST],
        filter: one,
        attributes: ['userName', 'name.familyName'],
        startIndex: 1,
        count: 10,
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(JSON.parse(res.text)).toEqual(
        listOf({ schemas: [USER_SCHEMA], id: ids[1], userName: emails[1], name: { familyName: 'Lovelace' } }),
      );
      const get = await scim.get(
        `/Users?filter=${encodeURIComponent(one)}&attributes=userName,name.familyName&startIndex=1&count=10`,
      );
      expect(JSON.parse(get.text)).toEqual(JSON.parse(res.text));

      const excluded = await scim.post('/Users/.search', {
        schemas: [SEARCH_REQUEST],
        filter: `id eq "${ids[0]}"`,
        excludedAttributes: ['meta', 'emails', 'name'],
      });
      expect(JSON.parse(excluded.text).Resources).toEqual([
        {
          schemas: [USER_SCHEMA],
          id: ids[0],
          externalId: expect.any(String),
          userName: emails[0],
          displayName: 'Ada Lovelace',
          locale: 'en-US',
          active: true,
        },
      ]);
    });

    it.each([
      [
        'a body that names another message',
        { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'] },
        'invalidSyntax',
      ],
      ['a count that is not an integer', { count: 'many' }, 'invalidValue'],
      ['an attribute path with a filter', { attributes: ['emails[type eq "work"].value'] }, 'invalidValue'],
    ])('%s: 400 %s', async (_what, body, scimType) => {
      const res = await invalidRequest(async () => (await client()).post('/Users/.search', body));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual(scimError(400, scimType));
    });
  });

  describe('POST /scim/v2/Groups/.search', () => {
    it('filter, excludedAttributes (members, as Entra asks) and paging, as GET', async () => {
      const scim = await client();
      const member = JSON.parse((await scim.post('/Users', oktaUser(address('searched')))).text);
      const name = `Searched ${n++}`;
      const group = JSON.parse(
        (await scim.post('/Groups', { displayName: name, members: [{ value: member.id }] })).text,
      );
      const res = await scim.post('/Groups/.search', {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: `displayName eq "${name.toUpperCase()}"`,
        excludedAttributes: ['members'],
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual(
        listOf({
          schemas: [GROUP_SCHEMA],
          id: group.id,
          displayName: name,
          meta: { ...group.meta, location: expect.stringMatching(new RegExp(`/scim/v2/Groups/${group.id}$`)) },
        }),
      );
      const page = await scim.post('/Groups/.search', { filter: `id eq "${group.id}"`, startIndex: 2 });
      expect(JSON.parse(page.text)).toMatchObject({ totalResults: 1, startIndex: 2, itemsPerPage: 0, Resources: [] });
    });
  });

  describe('POST /scim/v2/.search', () => {
    it('searching every resource type at once: 501 in SCIM’s form', async () => {
      const res = await (
        await client()
      ).post('/.search', {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      });
      expect(res.status).toBe(501);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(JSON.parse(res.text)).toEqual(scimError(501));
    });
  });
});

describe('SCIM rate limit (SCIM_RATE_LIMIT per token per minute)', () => {
  const { t, factory } = useTestApp({ env: { SCIM_RATE_LIMIT: '3' } });

  it('beyond the limit: 429 with Retry-After, in SCIM’s form; another token counts on its own', async () => {
    const tenant = await factory.tenant();
    const cookie = await sessionCookie(t, await factory.member(tenant.id, { role: 'owner' }));
    const scim = scimClient(t.http, (await scimToken(t, cookie)).secret);
    for (let i = 0; i < 3; i++) expect((await scim.get('/Users')).status).toBe(200);
    const refused = await scim.get('/Users');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.text)).toEqual(scimError(429));
    expect((await scimClient(t.http, (await scimToken(t, cookie)).secret).get('/Users')).status).toBe(200);
  });
});

describeWithRedis('SCIM rate limit on two instances sharing Redis (needs TEST_REDIS_URL)', () => {
  const fleet = useTwoInstances(() => ({ env: { SCIM_RATE_LIMIT: '4' }, redis: true }));

  it('the per-token count is shared: two instances together pass the limit once', async () => {
    const { first, second } = fleet;
    const tenant = await factories(first).tenant();
    const owner = await factories(first).member(tenant.id, { role: 'owner' });
    const token = await scimToken(first, await sessionCookie(first, owner));
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await scimClient(first.http, token.secret).get('/Users')).status);
      statuses.push((await scimClient(second.http, token.secret).get('/Users')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});

describe('SCIM token revocation across instances', () => {
  const fleet = useTwoInstances();

  it('a token revoked on one instance is refused by the other at once', async () => {
    const { first, second } = fleet;
    const tenant = await factories(first).tenant();
    const owner = await factories(first).member(tenant.id, { role: 'owner' });
    const token = await scimToken(first, await sessionCookie(first, owner));
    expect((await scimClient(second.http, token.secret).get('/Users')).status).toBe(200);
    const revoked = await first.http
      .delete(`/api/org/scim/tokens/${token.id}`)
      .set('Cookie', await sessionCookie(first, owner));
    expect(revoked.status).toBe(200);
    expect((await scimClient(second.http, token.secret).get('/Users')).status).toBe(401);
  });
});

/**
 * Runs `work` while every DELETE from `table` fails (its trigger writes to a table that does not
 * exist), so that a write fails part-way through; reads of the table still work.
 */
async function refusingDeletes<T>(dataSource: DataSource, table: string, work: () => Promise<T>): Promise<T> {
  const trigger = `refuse_deletes_${table}`;
  const write = 'INSERT INTO no_such_table VALUES (1)';
  await dataSource.query(
    dataSource.options.type === 'mysql'
      ? `CREATE TRIGGER ${trigger} BEFORE DELETE ON ${table} FOR EACH ROW ${write}`
      : `CREATE TRIGGER ${trigger} BEFORE DELETE ON ${table} BEGIN ${write}; END`,
  );
  try {
    return await work();
  } finally {
    await dataSource.query(`DROP TRIGGER ${trigger}`);
  }
}
