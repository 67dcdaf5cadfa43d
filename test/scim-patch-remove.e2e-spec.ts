import { AuditEventEntity, ScimUserEntity } from '../src/database/entities';
import { oktaUser, patchOp, scimClient, scimError, scimToken, USER_SCHEMA } from './support/scim';
import { useOrganisationSuite } from './support/suites';

/**
 * A PATCH `remove` (RFC 7644 section 3.5.2.2): the attribute is unassigned, and only a required or
 * readOnly one is refused (400 mutability), as /Schemas declares them (docs/scim.md, "Users").
 */
describe('PATCH /scim/v2/Users/{id}: remove', () => {
  const { t, factory, org } = useOrganisationSuite();
  let n = 0;
  const address = (name: string) => `${name}-${Date.now().toString(36)}-${n++}@example.com`;
  const client = async () => scimClient(t.http, (await scimToken(t, org.ownerCookie)).secret);
  const events = (type: string, targetId: string) =>
    t.dataSource.getRepository(AuditEventEntity).findBy({ type, tenantId: org.tenant.id, targetId });
  const storedUser = (id: string) => t.dataSource.getRepository(ScimUserEntity).findOneBy({ id });
  /** A person SCIM made a member. */
  const provisioned = async () => {
    const scim = await client();
    const person = await factory.user({ email: address('person') });
    const user = JSON.parse((await scim.post('/Users', oktaUser(person.email))).text) as { id: string };
    return { scim, person, user };
  };
  const REMOVALS = [
    ['{"op":"remove","path":"active"}', { op: 'remove', path: 'active' }],
    ['{"op":"Remove","path":"…:User:Active"}', { op: 'Remove', path: `${USER_SCHEMA}:Active` }],
    ['{"op":"replace","value":{"active":null}}', { op: 'replace', value: { active: null } }],
  ] as const;

  it('/Schemas declares active readWrite and not required: a remove of it is accepted, not 400 mutability', async () => {
    const schema = JSON.parse((await (await client()).get(`/Schemas/${USER_SCHEMA}`)).text);
    expect(schema.attributes.find(({ name }: { name: string }) => name === 'active')).toMatchObject({
      type: 'boolean',
      mutability: 'readWrite',
      required: false,
    });
  });

  it.each(REMOVALS)(
    '%s on an active person: 200, "active" unassigned (not returned), and the person detached as by false',
    async (_, operation) => {
      const { scim, person, user } = await provisioned();
      const res = await scim.patch(`/Users/${user.id}`, patchOp(operation));
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).not.toHaveProperty('active');
      expect(JSON.parse((await scim.get(`/Users/${user.id}`)).text)).not.toHaveProperty('active');
      expect(JSON.parse((await scim.get(`/Users/${user.id}?attributes=active`)).text)).toEqual({
        schemas: [USER_SCHEMA],
        id: user.id,
      });
      expect(await t.identity.findById(person.id)).toMatchObject({ tenantId: null, role: null });
      expect(await storedUser(user.id)).toMatchObject({ active: -1, role: 'member' });
      expect(await events('member.deactivated', person.id)).toHaveLength(1);
    },
  );

  it.each(REMOVALS)('%s on a detached person: "removing active must never bring anyone back"', async (_, operation) => {
    const { scim, person, user } = await provisioned();
    const off = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', path: 'active', value: false }));
    expect(off.status).toBe(200);
    const res = await scim.patch(`/Users/${user.id}`, patchOp(operation));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).not.toHaveProperty('active');
    expect(await t.identity.findById(person.id)).toMatchObject({ tenantId: null, role: null });
    expect(await storedUser(user.id)).toMatchObject({ active: -1, role: 'member' });
    expect(await events('member.reactivated', person.id)).toEqual([]);
    expect(await events('member.deactivated', person.id)).toHaveLength(1);
  });

  it('unassigned stays so through other changes; "active" true brings the person back with their role', async () => {
    const { scim, person, user } = await provisioned();
    await t.identity.setTenantRole(person.id, 'admin');
    expect((await scim.patch(`/Users/${user.id}`, patchOp({ op: 'remove', path: 'active' }))).status).toBe(200);
    const renamed = await scim.patch(
      `/Users/${user.id}`,
      patchOp({ op: 'replace', path: 'name.givenName', value: 'Augusta' }),
    );
    expect(JSON.parse(renamed.text)).not.toHaveProperty('active');
    expect(JSON.parse(renamed.text).name.givenName).toBe('Augusta');
    expect(await t.identity.findById(person.id)).toMatchObject({ tenantId: null });

    const back = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'replace', path: 'active', value: true }));
    expect(JSON.parse(back.text).active).toBe(true);
    expect(await t.identity.findById(person.id)).toMatchObject({ tenantId: org.tenant.id, role: 'admin' });
    expect(await events('member.reactivated', person.id)).toHaveLength(1);
  });

  it('the last owner: removing active is refused 409 mutability, as a deactivation is; nothing changes', async () => {
    const scim = await client();
    const owner = JSON.parse((await scim.post('/Users', oktaUser(org.owner.email))).text);
    const res = await scim.patch(`/Users/${owner.id}`, patchOp({ op: 'remove', path: 'active' }));
    expect(res.status).toBe(409);
    expect(JSON.parse(res.text)).toEqual(scimError(409, 'mutability'));
    expect(await t.identity.findById(org.owner.id)).toMatchObject({ role: 'owner', tenantId: org.tenant.id });
    expect(await storedUser(owner.id)).toMatchObject({ active: 1 });
  });

  it('"remove emails": the resource has no emails; the account’s address falls back to userName', async () => {
    const scim = await client();
    const userName = address('username');
    const work = address('work');
    const created = await scim.post(
      '/Users',
      oktaUser(userName, { emails: [{ value: work, type: 'work', primary: true }] }),
    );
    const user = JSON.parse(created.text);
    const [account] = await t.identity.findByEmail(work);
    expect(account).toMatchObject({ tenantId: org.tenant.id });
    const res = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'remove', path: 'emails' }));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).not.toHaveProperty('emails');
    expect(JSON.parse(res.text)).toMatchObject({ id: user.id, userName, active: true });
    expect(JSON.parse((await scim.get(`/Users/${user.id}`)).text)).not.toHaveProperty('emails');
    expect(await t.identity.findById(account.id)).toMatchObject({
      email: userName.toLowerCase(),
      tenantId: org.tenant.id,
    });
    const stored = (await storedUser(user.id))!;
    expect(stored.emailKey).toBe(userName.toLowerCase());
    expect(JSON.parse(stored.attributes)).not.toHaveProperty('emails');
  });

  it('"id", "meta" and "groups" (readOnly) and "userName" (required): 400 mutability, nothing changes', async () => {
    const { scim, user } = await provisioned();
    for (const path of ['id', 'meta', 'groups', 'userName']) {
      const res = await scim.patch(`/Users/${user.id}`, patchOp({ op: 'remove', path }));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual(scimError(400, 'mutability'));
    }
    expect(await storedUser(user.id)).toMatchObject({ active: 1 });
  });
});
