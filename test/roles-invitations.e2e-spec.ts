import { InvitationEntity } from '../src/database/entities';
import { sessionCookie } from './support/factories';
import { defineRole, eventsOf, heldRoles, invitationRoles, setRoles } from './support/roles';
import { INVITE_ERRORS } from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';
import { TestUser } from './support/test-identity';
import { invalidRequest } from './support/documented-http';

const refusal = (error: string, details: object = {}) => ({ success: false, error, ...details });

/**
 * Roles arrive with the person (docs/roles.md): an invitation, single, bulk or a super-admin's, may
 * carry custom roles beside the spec's `role`, checked as a grant is, and stored with it. An
 * invitation without them answers as the spec says.
 */
describe('invitations that carry custom roles', () => {
  const { t, factory, org } = useOrganisationSuite({ app: { env: { ROLES_PER_MEMBER: '2' } } });
  let admin: TestUser;
  let adminCookie: string;

  beforeEach(async () => {
    admin = await factory.member(org.tenant.id, { role: 'admin' });
    adminCookie = await sessionCookie(t, admin);
    expect((await defineRole(t, org.ownerCookie, 'recruiter', ['invitations:create', 'invitations:read'])).status).toBe(
      201,
    );
    expect((await defineRole(t, org.ownerCookie, 'role-manager', ['roles:manage'])).status).toBe(201);
    expect((await defineRole(t, org.ownerCookie, 'auditor', ['audit:read'])).status).toBe(201);
  });

  const invitations = () => t.dataSource.getRepository(InvitationEntity).findBy({ tenantId: org.tenant.id });

  describe('POST /api/org/invite', () => {
    const invite = (cookie: string, body: object) => t.http.post('/api/org/invite').set('Cookie', cookie).send(body);

    it('stores the roles with the invitation, answers them beside the spec’s fields, and records them', async () => {
      const res = await invite(adminCookie, { email: 'Cand@Example.com', role: 'member', roles: ['recruiter'] });
      expect([res.status, res.body]).toEqual([
        200,
        {
          success: true,
          invitation: {
            id: expect.any(String),
            email: 'Cand@Example.com',
            role: 'member',
            status: 'pending',
            expiresAt: expect.any(String),
            roles: ['recruiter'],
          },
        },
      ]);
      expect(await invitationRoles(t, res.body.invitation.id)).toEqual(['recruiter']);
      const [created] = await eventsOf(t, org.tenant.id, 'invitation.created');
      expect(created.data).toMatchObject({ role: 'member', roles: ['recruiter'] });
      const list = await t.http.get('/api/org/invitations').set('Cookie', adminCookie);
      expect(list.body.invitations).toEqual([
        expect.objectContaining({ email: 'cand@example.com', roles: ['recruiter'] }),
      ]);
    });

    it('without roles, the spec’s answer: no roles field, nothing stored beside the invitation', async () => {
      const res = await invite(adminCookie, { email: 'plain@example.com', role: 'member' });
      expect(Object.keys(res.body.invitation).sort()).toEqual(['email', 'expiresAt', 'id', 'role', 'status']);
      expect(await invitationRoles(t, res.body.invitation.id)).toEqual([]);
    });

    it.each([
      ['an unknown role', ['nobody'], 422, refusal('UNKNOWN_ROLE', { role: 'nobody' })],
      [
        'more than ROLES_PER_MEMBER',
        ['recruiter', 'auditor', 'role-manager'],
        422,
        refusal('MEMBER_ROLE_LIMIT', { limit: 2 }),
      ],
      [
        'a role beyond the admin’s own',
        ['role-manager'],
        403,
        refusal('ROLE_ESCALATION', { permission: 'roles:manage' }),
      ],
      ['not a list of keys', 'recruiter', 400, { error: 'Invalid roles. Must be a list of distinct role keys' }],
      ['a key twice', ['auditor', 'auditor'], 400, { error: 'Invalid roles. Must be a list of distinct role keys' }],
    ])('%s is refused, and nothing is stored', async (_, roles, status, expected) => {
      const res = await invalidRequest(() => invite(adminCookie, { email: 'cand@example.com', role: 'member', roles }));
      expect([res.status, res.body]).toEqual([status, expected]);
      expect(await invitations()).toEqual([]);
    });

    it('the spec’s rules come first: no e-mail is 400 "Email is required" whatever the roles', async () => {
      const res = await invalidRequest(() => invite(adminCookie, { role: 'member', roles: ['nobody'] }));
      expect([res.status, res.body]).toEqual([400, INVITE_ERRORS.emailRequired]);
    });

    it('a recruiter gives a role whose permissions are all theirs, and no other', async () => {
      const recruiter = await factory.member(org.tenant.id, { role: 'member' });
      await setRoles(t, org.ownerCookie, recruiter.id, ['recruiter']);
      const cookie = await sessionCookie(t, recruiter);
      const own = await invite(cookie, { email: 'a@example.com', role: 'member', roles: ['recruiter'] });
      expect(own.status).toBe(200);
      const other = await invite(cookie, { email: 'b@example.com', role: 'member', roles: ['auditor'] });
      expect([other.status, other.body]).toEqual([403, refusal('ROLE_ESCALATION', { permission: 'audit:read' })]);
      expect((await invitations()).map((row) => row.email)).toEqual(['a@example.com']);
    });
  });

  describe('POST /api/org/invitations/{id}/resend', () => {
    it('the new invitation carries the old one’s roles', async () => {
      const first = await t.http
        .post('/api/org/invite')
        .set('Cookie', adminCookie)
        .send({ email: 'again@example.com', role: 'member', roles: ['auditor'] });
      const res = await t.http
        .post(`/api/org/invitations/${first.body.invitation.id}/resend`)
        .set('Cookie', adminCookie);
      expect([res.status, res.body.invitation.roles]).toEqual([200, ['auditor']]);
      expect(await invitationRoles(t, res.body.invitation.id)).toEqual(['auditor']);
    });
  });

  describe('POST /api/org/invitations/bulk', () => {
    it('each row may carry roles, in JSON or in a CSV roles column; a row’s unknown or escalating role makes it invalid', async () => {
      const res = await invalidRequest(() =>
        t.http
          .post('/api/org/invitations/bulk')
          .set('Cookie', adminCookie)
          .send({
            invitations: [
              { email: 'one@example.com', role: 'member', roles: ['recruiter', 'auditor'] },
              { email: 'two@example.com', role: 'member', roles: ['nobody'] },
              { email: 'three@example.com', role: 'member', roles: ['role-manager'] },
              { email: 'four@example.com', role: 'member', roles: 'auditor' },
              { email: 'five@example.com', role: 'admin' },
            ],
          }),
      );
      expect(res.status).toBe(200);
      expect(res.body.results.map((row: { status: string; error?: string }) => [row.status, row.error])).toEqual([
        ['created', undefined],
        ['invalid', 'UNKNOWN_ROLE: nobody is not a role of this organisation'],
        ['invalid', 'ROLE_ESCALATION: giving these roles needs roles:manage, which you lack'],
        ['invalid', 'Invalid roles. Must be a list of distinct role keys'],
        ['created', undefined],
      ]);
      expect(res.body.results[0].invitation.roles).toEqual(['auditor', 'recruiter']);
      expect(res.body.results[4].invitation).not.toHaveProperty('roles');
      expect(await invitationRoles(t, res.body.results[0].invitation.id)).toEqual(['auditor', 'recruiter']);

      const csv = await t.http
        .post('/api/org/invitations/bulk')
        .set('Cookie', adminCookie)
        .set('Content-Type', 'text/csv')
        .send('email,role,roles\nsix@example.com,member,recruiter; auditor\nseven@example.com,member,\n');
      expect(csv.body.results.map((row: { status: string }) => row.status)).toEqual(['created', 'created']);
      expect(await invitationRoles(t, csv.body.results[0].invitation.id)).toEqual(['auditor', 'recruiter']);
      expect(await invitationRoles(t, csv.body.results[1].invitation.id)).toEqual([]);
    });
  });

  describe('POST /api/admin/tenants/{id}/invitations', () => {
    it('a super-admin gives any of the tenant’s roles; an unknown one is 422 UNKNOWN_ROLE, nothing stored', async () => {
      const root = await sessionCookie(t, await factory.superAdmin());
      const path = `/api/admin/tenants/${org.tenant.id}/invitations`;
      const res = await t.http
        .post(path)
        .set('Cookie', root)
        .send({ email: 'boss@example.com', role: 'owner', roles: ['role-manager'] });
      expect([res.status, res.body.invitation.roles]).toEqual([201, ['role-manager']]);
      expect(await invitationRoles(t, res.body.invitation.id)).toEqual(['role-manager']);
      const unknown = await t.http
        .post(path)
        .set('Cookie', root)
        .send({ email: 'x@example.com', role: 'member', roles: ['x1'] });
      expect([unknown.status, unknown.body]).toEqual([422, refusal('UNKNOWN_ROLE', { role: 'x1' })]);
      expect((await invitations()).map((row) => row.email)).toEqual(['boss@example.com']);
    });
  });

  describe('POST /api/invitations/{token}/join', () => {
    const inviteWith = async (email: string, roles: string[]) =>
      (await t.http.post('/api/org/invite').set('Cookie', org.ownerCookie).send({ email, role: 'member', roles })).body
        .invitation.id as string;
    const join = (token: string, cookie: string) =>
      t.http.post(`/api/invitations/${encodeURIComponent(token)}/join`).set('Cookie', cookie);

    it('the join grants the invitation’s custom roles: held at once, recorded, and they open their routes', async () => {
      const token = await inviteWith('rita@example.com', ['recruiter']);
      const rita = await factory.user({ email: 'rita@example.com' });
      const ritaCookie = await sessionCookie(t, rita);
      const joined = await join(token, ritaCookie);
      expect([joined.status, joined.body]).toEqual([
        200,
        { success: true, tenantId: org.tenant.id, role: 'member', userId: rita.id },
      ]);
      expect(await heldRoles(t, org.tenant.id)).toEqual([`${rita.id}:recruiter`]);
      const [changed] = await eventsOf(t, org.tenant.id, 'member.roles_changed');
      expect(changed).toMatchObject({ actor: { id: rita.id }, data: { before: [], after: ['recruiter'] } });
      // A new session, as after a sign-in: the one before the join names no organisation.
      const member = (await t.identity.findById(rita.id))!;
      const invited = await t.http
        .post('/api/org/invite')
        .set('Cookie', await sessionCookie(t, member))
        .send({ email: 'next@example.com', role: 'member' });
      expect(invited.status).toBe(200);
    });

    it('a role deleted after the invitation is not granted; the join is the spec’s', async () => {
      const token = await inviteWith('sam@example.com', ['auditor', 'recruiter']);
      expect((await t.http.delete('/api/org/roles/auditor').set('Cookie', org.ownerCookie)).status).toBe(200);
      const sam = await factory.user({ email: 'sam@example.com' });
      const joined = await join(token, await sessionCookie(t, sam));
      expect(joined.status).toBe(200);
      expect(await heldRoles(t, org.tenant.id)).toEqual([`${sam.id}:recruiter`]);
    });

    it('a member of the organisation already keeps the roles they hold (rule 6): the invitation’s are not added', async () => {
      const token = await inviteWith('kept@example.com', ['recruiter']);
      const member = await factory.member(org.tenant.id, { role: 'member', email: 'kept@example.com' });
      expect((await setRoles(t, org.ownerCookie, member.id, ['auditor'])).status).toBe(200);
      const joined = await join(token, await sessionCookie(t, member));
      expect([joined.status, joined.body.role]).toEqual([200, 'member']);
      expect(await heldRoles(t, org.tenant.id)).toEqual([`${member.id}:auditor`]);
    });
  });

  describe('a role deleted while invitations carry it', () => {
    it('they lose it, or carry reassignTo instead', async () => {
      const carry = async (email: string, roles: string[]) =>
        (await t.http.post('/api/org/invite').set('Cookie', org.ownerCookie).send({ email, role: 'member', roles }))
          .body.invitation.id as string;
      const one = await carry('one@example.com', ['auditor']);
      const two = await carry('two@example.com', ['recruiter']);
      expect(
        (await t.http.delete('/api/org/roles/auditor?reassignTo=recruiter').set('Cookie', org.ownerCookie)).status,
      ).toBe(200);
      expect([await invitationRoles(t, one), await invitationRoles(t, two)]).toEqual([['recruiter'], ['recruiter']]);
      expect((await t.http.delete('/api/org/roles/recruiter').set('Cookie', org.ownerCookie)).status).toBe(200);
      expect([await invitationRoles(t, one), await invitationRoles(t, two)]).toEqual([[], []]);
    });
  });
});
