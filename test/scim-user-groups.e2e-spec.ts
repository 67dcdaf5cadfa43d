import { PreparedStatements } from '../src/database/prepared-statements';
import { GROUP_SCHEMA, oktaUser, patchOp, scimClient, scimError, scimToken, USER_SCHEMA } from './support/scim';
import { useOrganisationSuite } from './support/suites';

type Attribute = {
  name: string;
  type: string;
  mutability: string;
  referenceTypes?: string[];
  subAttributes?: Attribute[];
};

/**
 * A User's `groups` (RFC 7643 section 4.1.2: readOnly, returned by default) and a Group's
 * `members`, as /Schemas declares them (section 8.7.1) and the answers carry them (docs/scim.md).
 */
describe('SCIM: the groups of a User, the members of a Group', () => {
  const { t, org } = useOrganisationSuite();
  let n = 0;
  const address = (name: string) => `${name}-${Date.now().toString(36)}-${n++}@example.com`;
  const client = async () => scimClient(t.http, (await scimToken(t, org.ownerCookie)).secret);

  /** Two users, Ada in the groups Engineering and Admins, Bob in Engineering only. */
  const provisioned = async () => {
    const scim = await client();
    const users: { id: string; meta: { location: string } }[] = [];
    for (const name of ['ada', 'bob'])
      users.push(JSON.parse((await scim.post('/Users', oktaUser(address(name)))).text));
    const group = async (displayName: string, members: { id: string }[]) =>
      JSON.parse((await scim.post('/Groups', { displayName, members: members.map(({ id }) => ({ value: id })) })).text);
    const engineering = await group('Engineering', users);
    const admins = await group('Admins', [users[0]]);
    // The address is the request's own (Host), and supertest's port differs per request: the path is compared.
    const ref = (group: { id: string }) =>
      expect.stringMatching(new RegExp(`^https?://[^/]+/scim/v2/Groups/${group.id}$`));
    const groupsOf = (...groups: { id: string; displayName: string }[]) =>
      groups.map((group) => ({ value: group.id, $ref: ref(group), display: group.displayName, type: 'direct' }));
    return { scim, users, engineering, admins, groupsOf };
  };

  /** The statements of a request that read scim_group_members. */
  const membershipReads = () => {
    const rows = jest.spyOn(t.app.get(PreparedStatements), 'rows');
    return () => {
      const sql = rows.mock.calls
        .map(([statement]) => statement)
        .filter((statement) => /scim_group_members/.test(statement));
      rows.mockRestore();
      return sql;
    };
  };

  describe('GET /scim/v2/Schemas', () => {
    const attributesOf = async (urn: string) =>
      (JSON.parse((await (await client()).get(`/Schemas/${urn}`)).text) as { attributes: Attribute[] }).attributes;

    it('the Group schema declares members.$ref, a reference to a User, beside value and display', async () => {
      const members = (await attributesOf(GROUP_SCHEMA)).find(({ name }) => name === 'members')!;
      expect(members.subAttributes!.map(({ name }) => name)).toEqual(['value', '$ref', 'display']);
      expect(members.subAttributes!.find(({ name }) => name === '$ref')).toMatchObject({
        type: 'reference',
        referenceTypes: ['User'],
      });
    });

    it('the User schema declares groups readOnly: value, $ref (a reference to a Group), display and type', async () => {
      const groups = (await attributesOf(USER_SCHEMA)).find(({ name }) => name === 'groups')!;
      expect(groups).toMatchObject({ mutability: 'readOnly', returned: 'default' });
      expect(groups.subAttributes!.map(({ name }) => name)).toEqual(['value', '$ref', 'display', 'type']);
      expect(groups.subAttributes!.every(({ mutability }) => mutability === 'readOnly')).toBe(true);
      expect(groups.subAttributes!.find(({ name }) => name === '$ref')).toMatchObject({ referenceTypes: ['Group'] });
    });
  });

  describe('GET /scim/v2/Groups/{id}', () => {
    it('"members" carries value, display and $ref, each declared by the Group schema', async () => {
      const { scim, users, engineering } = await provisioned();
      const read = JSON.parse((await scim.get(`/Groups/${engineering.id}`)).text);
      expect(read.members).toEqual(
        expect.arrayContaining(
          users.map((user) => ({
            value: user.id,
            display: expect.any(String),
            $ref: expect.stringMatching(new RegExp(`/scim/v2/Users/${user.id}$`)),
          })),
        ),
      );
    });
  });

  describe('GET /scim/v2/Users/{id}', () => {
    it('"groups" is returned by default: value, $ref, display and type of each group the user is in, by name', async () => {
      const { scim, users, engineering, admins, groupsOf } = await provisioned();
      const ada = JSON.parse((await scim.get(`/Users/${users[0].id}`)).text);
      expect(ada.groups).toEqual(groupsOf(admins, engineering));
      expect(JSON.parse((await scim.get(`/Users/${users[1].id}`)).text).groups).toEqual(groupsOf(engineering));
    });

    it('a user in no group has no "groups" (unassigned, RFC 7643 section 2.5)', async () => {
      const scim = await client();
      const user = JSON.parse((await scim.post('/Users', oktaUser(address('alone')))).text);
      expect(user).not.toHaveProperty('groups');
      expect(JSON.parse((await scim.get(`/Users/${user.id}`)).text)).not.toHaveProperty('groups');
    });

    it('"groups" follows the groups: a member removed, a group renamed or deleted', async () => {
      const { scim, users, engineering, admins, groupsOf } = await provisioned();
      await scim.patch(`/Groups/${admins.id}`, patchOp({ op: 'remove', path: `members[value eq "${users[0].id}"]` }));
      await scim.patch(`/Groups/${engineering.id}`, patchOp({ op: 'replace', path: 'displayName', value: 'Eng' }));
      const groups = () => scim.get(`/Users/${users[0].id}`).then((res) => JSON.parse(res.text).groups);
      expect(await groups()).toEqual(groupsOf({ ...engineering, displayName: 'Eng' }));
      expect((await scim.delete(`/Groups/${engineering.id}`)).status).toBe(204);
      expect(await groups()).toBeUndefined();
    });

    it.each([
      ['attributes=groups', { groups: expect.any(Array) }, true],
      ['attributes=groups.display', { groups: [{ display: 'Admins' }, { display: 'Engineering' }] }, true],
      ['attributes=userName', { userName: expect.any(String) }, false],
      ['excludedAttributes=groups', null, false],
    ])('honours %s (RFC 7644 section 3.9); groups are read only when shown', async (query, shown, read) => {
      const { scim, users } = await provisioned();
      const reads = membershipReads();
      const res = await scim.get(`/Users/${users[0].id}?${query}`);
      expect(res.status).toBe(200);
      const body = JSON.parse(res.text);
      if (shown) expect(body).toEqual({ schemas: [USER_SCHEMA], id: users[0].id, ...shown });
      else expect(body).not.toHaveProperty('groups');
      expect(reads()).toHaveLength(read ? 1 : 0);
    });
  });

  describe('GET /scim/v2/Users', () => {
    it("each user's groups, read in one statement for the page, never one per user", async () => {
      const { scim, users, engineering, admins, groupsOf } = await provisioned();
      for (let i = 0; i < 3; i++) await scim.post('/Users', oktaUser(address('more')));
      const reads = membershipReads();
      const list = JSON.parse((await scim.get('/Users?count=100')).text);
      expect(reads()).toHaveLength(1);
      const byId = new Map(list.Resources.map((user: { id: string }) => [user.id, user]));
      expect(list.Resources.length).toBeGreaterThanOrEqual(5);
      expect(byId.get(users[0].id)).toMatchObject({ groups: groupsOf(admins, engineering) });
      expect(byId.get(users[1].id)).toMatchObject({ groups: groupsOf(engineering) });
    });

    it('excludedAttributes=groups: none shown, none read', async () => {
      const { scim } = await provisioned();
      const reads = membershipReads();
      const list = JSON.parse((await scim.get('/Users?excludedAttributes=groups')).text);
      expect(reads()).toEqual([]);
      expect(list.Resources.filter((user: object) => 'groups' in user)).toEqual([]);
    });
  });

  describe('POST /scim/v2/Users/.search', () => {
    it('"attributes": ["groups"] in a SearchRequest, as in the query', async () => {
      const { scim, users, engineering, admins, groupsOf } = await provisioned();
      const res = await scim.post('/Users/.search', {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: `id eq "${users[0].id}"`,
        attributes: ['groups'],
      });
      expect(JSON.parse(res.text).Resources).toEqual([
        { schemas: [USER_SCHEMA], id: users[0].id, groups: groupsOf(admins, engineering) },
      ]);
    });
  });

  describe('PUT and PATCH /scim/v2/Users/{id}', () => {
    it('the answer carries the groups, as a GET would', async () => {
      const { scim, users, engineering, admins, groupsOf } = await provisioned();
      const user = JSON.parse((await scim.get(`/Users/${users[0].id}`)).text);
      const patched = await scim.patch(
        `/Users/${user.id}`,
        patchOp({ op: 'replace', path: 'displayName', value: 'A' }),
      );
      expect(JSON.parse(patched.text).groups).toEqual(groupsOf(admins, engineering));
      const put = await scim.put(`/Users/${user.id}`, oktaUser(user.userName, { displayName: 'B' }));
      expect(JSON.parse(put.text).groups).toEqual(groupsOf(admins, engineering));
    });

    it('"groups" is readOnly: a PATCH of it is 400 mutability; a PUT\'s "groups" is ignored', async () => {
      const { scim, users, engineering, groupsOf } = await provisioned();
      const res = await scim.patch(
        `/Users/${users[1].id}`,
        patchOp({ op: 'add', path: 'groups', value: [{ value: 'x' }] }),
      );
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual(scimError(400, 'mutability'));
      const user = JSON.parse((await scim.get(`/Users/${users[1].id}`)).text);
      const put = await scim.put(`/Users/${user.id}`, oktaUser(user.userName, { groups: [] }));
      expect(JSON.parse(put.text).groups).toEqual(groupsOf(engineering));
    });
  });
});
