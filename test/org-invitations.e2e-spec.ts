import { InvitationEntity } from '../src/database/entities';
import { InvitationsStore } from '../src/invitations/invitations.store';
import { sessionCookie } from './support/factories';
import { pagePath } from './support/invitation-page';
import {
  INVITATION_GET,
  INVITATION_POST,
  ORG_INVITATION_ERRORS,
  PAGING_ERRORS,
  UNAUTHORIZED,
} from './support/spec-bodies';
import { useOrganisationSuite } from './support/suites';
import { invalidRequest } from './support/documented-http';

const DAY = 24 * 3600 * 1000;

/** GET and DELETE /api/org/invitations: an organisation's invitations, listed and revoked by its owners and admins. */
describe('organisation invitations', () => {
  const { t, factory, org } = useOrganisationSuite();

  /** An invitation of the test's tenant to an address that starts with `name`, so that the test picks the order. */
  const invitation = (name: string, overrides: Partial<InvitationEntity> = {}) =>
    factory.invitation({
      tenantId: org.tenant.id,
      email: `${name}-${org.sequence++}@example.com`,
      invitedBy: org.owner.id,
      ...overrides,
    });
  const past = () => new Date(Date.now() - DAY);
  const shown = (row: InvitationEntity, status: string = row.status) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    status,
    expiresAt: row.expiresAt.toISOString(),
    invitedBy: row.invitedBy,
    createdAt: row.createdAt.toISOString(),
  });
  const stored = (id: string) => t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id });

  describe('GET /api/org/invitations', () => {
    const list = (query = '', cookie: string | null = org.ownerCookie) => {
      const request = t.http.get(`/api/org/invitations${query}`);
      return cookie ? request.set('Cookie', cookie) : request;
    };

    it("answers 200 {invitations:[{id,email,role,status,expiresAt,invitedBy,createdAt}]} by e-mail, only the caller's tenant", async () => {
      const b = await invitation('b', { role: 'admin' });
      const a = await invitation('a', { status: 'accepted' });
      await factory.invitation({ email: 'a-elsewhere@example.com' });
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ invitations: [shown(a), shown(b)] });
    });

    it('the status shown is the effective one: a pending invitation past its expiresAt is listed expired; the row unchanged', async () => {
      const late = await invitation('a', { expiresAt: past() });
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ invitations: [shown(late, 'expired')] });
      expect((await stored(late.id)).status).toBe('pending');
    });

    it('status filters on the effective status, and can be repeated', async () => {
      const pending = await invitation('a');
      const late = await invitation('b', { expiresAt: past() });
      const expired = await invitation('c', { status: 'expired', expiresAt: past() });
      const accepted = await invitation('d', { status: 'accepted' });
      const revoked = await invitation('e', { status: 'revoked' });
      const ids = async (query: string) => {
        const res = await list(query);
        expect(res.status).toBe(200);
        return res.body.invitations.map((row: { id: string }) => row.id);
      };
      expect(await ids('?status=pending')).toEqual([pending.id]);
      expect(await ids('?status=expired')).toEqual([late.id, expired.id]);
      expect(await ids('?status=accepted')).toEqual([accepted.id]);
      expect(await ids('?status=revoked')).toEqual([revoked.id]);
      expect(await ids('?status=pending&status=revoked')).toEqual([pending.id, revoked.id]);
      expect(await ids('')).toEqual([pending.id, late.id, expired.id, accepted.id, revoked.id]);
    });

    it.each(['open', '', 'PENDING'])('status=%p is 400 with the allowed values', async (status) => {
      const res = await invalidRequest(() => list(`?status=pending&status=${status}`));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(ORG_INVITATION_ERRORS.invalidStatus);
    });

    it('pages by limit and cursor, stable by e-mail then id, with no nextCursor on the last page', async () => {
      const rows = [await invitation('a'), await invitation('b'), await invitation('c')];
      // The same address twice: the id breaks the tie.
      rows.push(await factory.invitation({ tenantId: org.tenant.id, email: rows[2].email }));
      rows.sort((x, y) => (x.email === y.email ? (x.id < y.id ? -1 : 1) : x.email < y.email ? -1 : 1));
      const first = await list('?limit=3');
      expect(first.body).toEqual({
        invitations: rows.slice(0, 3).map((row) => shown(row)),
        nextCursor: expect.any(String),
      });
      const last = await list(`?limit=3&cursor=${first.body.nextCursor}`);
      expect(last.body).toEqual({ invitations: [shown(rows[3])] });
    });

    it('paging while invitations are added and revoked never repeats or skips one that stayed put', async () => {
      const a = await invitation('a');
      await invitation('c');
      const e = await invitation('e');
      const first = await list('?limit=1&status=pending');
      expect(first.body.invitations.map((row: { id: string }) => row.id)).toEqual([a.id]);
      await invitation('0-before');
      const d = await invitation('d');
      const c = (await list('?status=pending')).body.invitations.find((row: { email: string }) =>
        row.email.startsWith('c-'),
      );
      expect((await t.http.delete(`/api/org/invitations/${c.id}`).set('Cookie', org.ownerCookie)).status).toBe(200);
      const rest = await list(`?status=pending&cursor=${first.body.nextCursor}`);
      expect(rest.body.invitations.map((row: { id: string }) => row.id)).toEqual([d.id, e.id]);
    });

    it.each([
      ['limit=0', PAGING_ERRORS.invalidLimit],
      ['limit=101', PAGING_ERRORS.invalidLimit],
      ['cursor=nope!', PAGING_ERRORS.invalidCursor],
      [`cursor=${Buffer.from('{}').toString('base64url')}`, PAGING_ERRORS.invalidCursor],
    ])('%s is 400 with a clear message', async (query, body) => {
      const res = await invalidRequest(() => list(`?${query}`));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
    });

    it('no session is 401', async () => {
      const res = await list('', null);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it('a caller outside any organisation is 403 "Only organisation users can access this"', async () => {
      const res = await list('', await sessionCookie(t, await factory.superAdmin()));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ORG_INVITATION_ERRORS.notOrgUser);
    });

    it('a member is 403 "Only owner or admin can manage invitations": the id is the token', async () => {
      await invitation('a');
      const res = await list('', await sessionCookie(t, await factory.member(org.tenant.id, { role: 'member' })));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ORG_INVITATION_ERRORS.notOwnerOrAdmin);
    });

    it('a database failure is 500 {"error":"Failed to list invitations"}', async () => {
      jest.spyOn(t.app.get(InvitationsStore), 'listForTenant').mockRejectedValueOnce(new Error('database down'));
      const res = await list();
      expect(res.status).toBe(500);
      expect(res.body).toEqual(ORG_INVITATION_ERRORS.listFailed);
    });
  });

  describe('DELETE /api/org/invitations/{id}', () => {
    const revoke = (id: string, cookie: string | null = org.ownerCookie) => {
      const request = t.http.delete(`/api/org/invitations/${encodeURIComponent(id)}`);
      return cookie ? request.set('Cookie', cookie) : request;
    };

    it('revokes a pending invitation: 200 {success:true}, row revoked; the public routes answer 404 INVALID as for no token', async () => {
      const row = await invitation('a');
      const res = await revoke(row.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await stored(row.id)).toEqual({ ...row, status: 'revoked' });

      const validated = await t.http.get(`/api/invitations/${row.id}`);
      expect(validated.status).toBe(404);
      expect(validated.body).toEqual(INVITATION_GET.invalid);
      const accepted = await t.http.post(`/api/invitations/${row.id}`);
      expect(accepted.status).toBe(404);
      expect(accepted.body).toEqual(INVITATION_POST.invalid);
      expect((await stored(row.id)).status).toBe('revoked');
    });

    it('the invitation page then says the link is not valid, as for an unknown token', async () => {
      const row = await invitation('a');
      await revoke(row.id);
      const res = await t.http.get(pagePath(row.id));
      expect(res.status).toBe(404);
      expect(res.text).toContain('This invitation link is not valid');
    });

    it.each([
      ['stored pending past its expiresAt', { expiresAt: past() }],
      ['stored expired', { status: 'expired' as const, expiresAt: past() }],
    ])('revokes an invitation %s', async (_, overrides) => {
      const row = await invitation('a', overrides);
      const res = await revoke(row.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await stored(row.id)).status).toBe('revoked');
      const listed = await t.http.get('/api/org/invitations?status=revoked').set('Cookie', org.ownerCookie);
      expect(listed.body.invitations).toEqual([shown(row, 'revoked')]);
    });

    it('revoking an invitation that is already revoked answers 200 again and changes nothing', async () => {
      const row = await invitation('a', { status: 'revoked' });
      const res = await revoke(row.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await stored(row.id)).toEqual(row);
    });

    it('an accepted invitation is 400 "Invitation already accepted" and stays accepted', async () => {
      const row = await invitation('a', { status: 'accepted' });
      const res = await revoke(row.id);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(ORG_INVITATION_ERRORS.alreadyAccepted);
      expect(await stored(row.id)).toEqual(row);
    });

    it.each([
      ['an unknown id', async () => '6f0c2b1e-8d7a-4b7e-9a53-2f7f2b2f5a10'],
      ['a 5,000-character id', async () => 'x'.repeat(5_000)],
      ["another tenant's invitation", async () => (await factory.invitation()).id],
    ])('%s is 404 "Invitation not found", and nothing changes', async (_, makeId) => {
      const id = await makeId();
      const res = await revoke(id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(ORG_INVITATION_ERRORS.notFound);
      const row = await t.dataSource.getRepository(InvitationEntity).findOneBy({ id });
      if (row) expect(row.status).toBe('pending');
    });

    it('an invitation id in another case is not the invitation: 404', async () => {
      const row = await invitation('a');
      const res = await revoke(row.id.toUpperCase());
      expect(res.status).toBe(404);
      expect((await stored(row.id)).status).toBe('pending');
    });

    it('no session is 401 and nothing changes', async () => {
      const row = await invitation('a');
      const res = await revoke(row.id, null);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
      expect((await stored(row.id)).status).toBe('pending');
    });

    it('a member is 403 "Only owner or admin can manage invitations" and nothing changes', async () => {
      const row = await invitation('a');
      const res = await revoke(row.id, await sessionCookie(t, await factory.member(org.tenant.id, { role: 'member' })));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ORG_INVITATION_ERRORS.notOwnerOrAdmin);
      expect((await stored(row.id)).status).toBe('pending');
    });

    it('an admin may revoke', async () => {
      const row = await invitation('a');
      const res = await revoke(row.id, await sessionCookie(t, await factory.member(org.tenant.id, { role: 'admin' })));
      expect(res.status).toBe(200);
      expect((await stored(row.id)).status).toBe('revoked');
    });

    it('parallel revokes of one invitation all answer 200 and revoke it once', async () => {
      const row = await invitation('a');
      const answers = await Promise.all(Array.from({ length: 5 }, () => revoke(row.id)));
      expect(answers.map((res) => [res.status, res.body])).toEqual(Array(5).fill([200, { success: true }]));
      expect((await stored(row.id)).status).toBe('revoked');
    });

    it('a revoke racing an accept: exactly one wins, and the answers agree with the row', async () => {
      const row = await invitation('a');
      const [revoked, accepted] = await Promise.all([revoke(row.id), t.http.post(`/api/invitations/${row.id}`)]);
      const status = (await stored(row.id)).status;
      if (status === 'revoked') {
        expect([revoked.status, accepted.status, accepted.body]).toEqual([200, 404, INVITATION_POST.invalid]);
      } else {
        expect(status).toBe('accepted');
        expect([revoked.status, revoked.body, accepted.status]).toEqual([
          400,
          ORG_INVITATION_ERRORS.alreadyAccepted,
          200,
        ]);
      }
    });

    it('a database failure is 500 {"error":"Failed to revoke invitation"} and nothing changes', async () => {
      const row = await invitation('a');
      jest.spyOn(t.app.get(InvitationsStore), 'revoke').mockRejectedValueOnce(new Error('database down'));
      const res = await revoke(row.id);
      expect(res.status).toBe(500);
      expect(res.body).toEqual(ORG_INVITATION_ERRORS.revokeFailed);
      expect((await stored(row.id)).status).toBe('pending');
    });
  });
});
