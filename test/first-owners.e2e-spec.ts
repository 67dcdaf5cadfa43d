import {
  AuditEventEntity,
  InvitationEmailOutboxEntity,
  InvitationEntity,
  TenantEntity,
} from '../src/database/entities';
import { sessionCookie } from './support/factories';
import { FORBIDDEN, UNAUTHORIZED, UUID, ISO_8601 } from './support/spec-bodies';
import { useTestApp } from './support/suites';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

const ERRORS = {
  tenantNotFound: { error: 'Tenant not found' },
  emailRequired: { error: 'Email is required' },
  invalidEmail: { error: 'Invalid email address' },
  invalidRole: { error: 'Invalid role. Must be owner, admin or member' },
  alreadyMember: { error: 'User is already a member of this organisation' },
};

/**
 * POST /api/admin/tenants/{id}/invitations: a super-admin invites a tenant's first owner (or
 * anyone, with any role), and the owner's join makes the tenant active.
 */
describe('first owners', () => {
  const { t, factory } = useTestApp();
  let root: TestUser;
  let rootCookie: string;
  let sequence = 0;
  beforeAll(async () => {
    root = await factory.superAdmin();
    rootCookie = await sessionCookie(t, root);
  });

  const address = (name = 'person') => `${name}-${sequence++}@example.com`;
  const inviteTo = (tenantId: string, body: unknown, cookie: string | null = rootCookie) => {
    const request = t.http.post(`/api/admin/tenants/${encodeURIComponent(tenantId)}/invitations`);
    return (cookie ? request.set('Cookie', cookie) : request).send(body as object);
  };
  const join = async (token: string, user: TestUser) =>
    t.http.post(`/api/invitations/${token}/join`).set('Cookie', await sessionCookie(t, user));
  /** A new sign-in of the user: a session with the claims of their stored record. */
  const signedIn = async (user: TestUser) => sessionCookie(t, (await t.identity.findById(user.id))!);
  const tenantRow = (id: string) => t.dataSource.getRepository(TenantEntity).findOneByOrFail({ id });
  const eventTypes = async (tenantId: string) =>
    (
      await t.dataSource.getRepository(AuditEventEntity).find({ where: { tenantId }, order: { occurredAt: 'ASC' } })
    ).map((event) => event.type);

  describe('refusals', () => {
    it('section 5: no session is 401 Unauthorized; a caller who is not a super-admin is 403 Forbidden', async () => {
      const tenant = await factory.tenant();
      const anonymous = await inviteTo(tenant.id, { email: address(), role: 'owner' }, null);
      expect([anonymous.status, anonymous.body]).toEqual([401, UNAUTHORIZED]);
      const owner = await factory.member(tenant.id, { role: 'owner' });
      const member = await inviteTo(tenant.id, { email: address(), role: 'owner' }, await sessionCookie(t, owner));
      expect([member.status, member.body]).toEqual([403, FORBIDDEN]);
    });

    it('an unknown tenant is 404, before the body is read', async () => {
      for (const body of [
        { email: address(), role: 'owner' },
        { email: 'nonsense', role: 'king' },
      ]) {
        const res = await invalidRequest(() => inviteTo('0b6f1d1e-3c1a-4d4e-9a53-6f7f2b2f5a10', body));
        expect([res.status, res.body]).toEqual([404, ERRORS.tenantNotFound]);
      }
      const tenant = await factory.tenant();
      const padded = await inviteTo(`${tenant.id} `, { email: address(), role: 'owner' });
      expect([padded.status, padded.body]).toEqual([404, ERRORS.tenantNotFound]);
    });

    it.each([
      ['no e-mail', { role: 'owner' }, ERRORS.emailRequired],
      ['an empty e-mail', { email: '', role: 'owner' }, ERRORS.emailRequired],
      ['a malformed e-mail', { email: 'not-an-address', role: 'owner' }, ERRORS.invalidEmail],
      ['no role', { email: 'a@example.com' }, ERRORS.invalidRole],
      ['an unknown role', { email: 'a@example.com', role: 'super_admin' }, ERRORS.invalidRole],
      ['a role in capitals', { email: 'a@example.com', role: 'Owner' }, ERRORS.invalidRole],
    ])('%s is 400, and nothing is stored', async (_, body, error) => {
      const tenant = await factory.tenant();
      const res = await invalidRequest(() => inviteTo(tenant.id, body));
      expect([res.status, res.body]).toEqual([400, error]);
      expect(await t.dataSource.getRepository(InvitationEntity).countBy({ tenantId: tenant.id })).toBe(0);
    });

    it('an address that a member of the tenant already has, in any spelling, is 400 as spec 4.9 rule 8', async () => {
      const tenant = await factory.tenant();
      const member = await factory.member(tenant.id, { email: address('member'), role: 'member' });
      const res = await inviteTo(tenant.id, { email: member.email.toUpperCase(), role: 'owner' });
      expect([res.status, res.body]).toEqual([400, ERRORS.alreadyMember]);
      expect(await t.dataSource.getRepository(InvitationEntity).countBy({ tenantId: tenant.id })).toBe(0);
    });
  });

  it('201 {success, invitation}: stored, e-mailed and audited as an org invitation, invitedBy the super-admin', async () => {
    const tenant = await factory.tenant({ name: 'Initech' });
    const submitted = `Olivia.${sequence++}@Example.com`;
    const res = await inviteTo(tenant.id, { email: submitted, role: 'owner' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      invitation: {
        id: expect.stringMatching(UUID),
        email: submitted,
        role: 'owner',
        status: 'pending',
        expiresAt: expect.stringMatching(ISO_8601),
      },
    });
    const stored = await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id: res.body.invitation.id });
    expect(stored).toMatchObject({
      tenantId: tenant.id,
      email: submitted.toLowerCase(),
      role: 'owner',
      status: 'pending',
      invitedBy: root.id,
    });
    const outbox = await t.dataSource
      .getRepository(InvitationEmailOutboxEntity)
      .findOneByOrFail({ invitationId: stored.id });
    expect(JSON.parse(outbox.payload)).toMatchObject({
      to: submitted.toLowerCase(),
      tenantName: 'Initech',
      inviterEmail: root.email,
      role: 'owner',
    });
    const [event] = await t.dataSource
      .getRepository(AuditEventEntity)
      .findBy({ tenantId: tenant.id, type: 'invitation.created' });
    expect(event).toMatchObject({
      actorId: root.id,
      actorEmail: root.email,
      targetType: 'invitation',
      targetEmail: submitted.toLowerCase(),
    });
  });

  it('a new tenant gets its first owner: it joins, the tenant is active; then an admin and a member join by the org routes', async () => {
    const created = await t.http
      .post('/api/admin/tenants')
      .set('Cookie', rootCookie)
      .send({ name: 'Globex', type: 'business' });
    expect(created.body.tenant.status).toBe('pending_owner');
    const tenantId: string = created.body.tenant.id;

    const owner = await factory.user({ email: address('owner') });
    const ownerInvitation = await inviteTo(tenantId, { email: owner.email, role: 'owner' });
    expect(ownerInvitation.status).toBe(201);
    const ownerJoined = await join(ownerInvitation.body.invitation.id, owner);
    expect([ownerJoined.status, ownerJoined.body]).toEqual([
      200,
      { success: true, tenantId, role: 'owner', userId: owner.id },
    ]);
    expect((await tenantRow(tenantId)).status).toBe('active');
    const listed = await t.http.get('/api/admin/tenants').set('Cookie', rootCookie);
    expect(listed.body.tenants).toContainEqual(expect.objectContaining({ id: tenantId, status: 'active' }));
    const [activated] = await t.dataSource
      .getRepository(AuditEventEntity)
      .findBy({ tenantId, type: 'tenant.activated' });
    expect(activated).toMatchObject({
      actorId: owner.id,
      actorEmail: owner.email,
      targetType: 'tenant',
      targetId: tenantId,
    });
    expect(JSON.parse(activated.data)).toEqual({ statusBefore: 'pending_owner', status: 'active' });

    const admin = await factory.user({ email: address('admin') });
    const adminInvitation = await t.http
      .post('/api/org/invite')
      .set('Cookie', await signedIn(owner))
      .send({ email: admin.email, role: 'admin' });
    expect(adminInvitation.status).toBe(200);
    expect((await join(adminInvitation.body.invitation.id, admin)).body).toEqual({
      success: true,
      tenantId,
      role: 'admin',
      userId: admin.id,
    });

    const member = await factory.user({ email: address('member') });
    const memberInvitation = await t.http
      .post('/api/org/invite')
      .set('Cookie', await signedIn(admin))
      .send({ email: member.email, role: 'member' });
    expect(memberInvitation.status).toBe(200);
    expect((await join(memberInvitation.body.invitation.id, member)).body).toEqual({
      success: true,
      tenantId,
      role: 'member',
      userId: member.id,
    });

    const members = await t.http.get('/api/org/members').set('Cookie', await signedIn(member));
    expect(
      members.body.members
        .map((listedMember: { id: string; role: string }) => [listedMember.id, listedMember.role])
        .sort(),
    ).toEqual(
      [
        [owner.id, 'owner'],
        [admin.id, 'admin'],
        [member.id, 'member'],
      ].sort(),
    );
    expect(await eventTypes(tenantId)).toEqual(
      expect.arrayContaining([
        'tenant.created',
        'invitation.created',
        'invitation.accepted',
        'member.joined',
        'tenant.activated',
      ]),
    );
    expect((await eventTypes(tenantId)).filter((type) => type === 'tenant.activated')).toHaveLength(1);
    expect((await eventTypes(tenantId)).filter((type) => type === 'member.joined')).toHaveLength(3);
  });

  it('only an owner activates: an admin joining a pending_owner tenant leaves it pending; an active tenant is left as it is', async () => {
    const tenant = await factory.tenant();
    const admin = await factory.user({ email: address('admin') });
    const invitation = await inviteTo(tenant.id, { email: admin.email, role: 'admin' });
    expect((await join(invitation.body.invitation.id, admin)).status).toBe(200);
    expect((await tenantRow(tenant.id)).status).toBe('pending_owner');

    const active = await factory.tenant({ status: 'active' });
    const owner = await factory.user({ email: address('owner') });
    const ownerInvitation = await inviteTo(active.id, { email: owner.email, role: 'owner' });
    expect((await join(ownerInvitation.body.invitation.id, owner)).status).toBe(200);
    expect((await tenantRow(active.id)).status).toBe('active');
    expect(await eventTypes(active.id)).not.toContain('tenant.activated');
  });

  it('two first owners joining at once: both join, the tenant is activated once', async () => {
    const tenant = await factory.tenant();
    const owners = [await factory.user({ email: address('owner') }), await factory.user({ email: address('owner') })];
    const tokens = await Promise.all(
      owners.map(
        async (owner) => (await inviteTo(tenant.id, { email: owner.email, role: 'owner' })).body.invitation.id,
      ),
    );
    const answers = await Promise.all(owners.map((owner, index) => join(tokens[index], owner)));
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    expect((await tenantRow(tenant.id)).status).toBe('active');
    expect((await eventTypes(tenant.id)).filter((type) => type === 'tenant.activated')).toHaveLength(1);
  });

  it('the spec accept of an owner invitation activates nothing and makes nobody a member', async () => {
    const tenant = await factory.tenant();
    const email = address('owner');
    const invitation = await inviteTo(tenant.id, { email, role: 'owner' });
    const res = await t.http.post(`/api/invitations/${invitation.body.invitation.id}`);
    expect([res.status, res.body]).toEqual([200, { success: true, tenantId: tenant.id, role: 'owner' }]);
    expect((await tenantRow(tenant.id)).status).toBe('pending_owner');
    expect(await t.identity.findByEmail(email)).toEqual([]);
  });
});
