import { DataSource, Repository } from 'typeorm';
import { apiFailure } from '../../test/support/api-failure';
import { grantsStoreOn, invitationsStoreOn, memoryDataSource } from '../../test/support/memory-data-source';
import { MemoryIdentityStore } from '../../test/support/memory-identity-store';
import { TestClock } from '../../test/support/test-clock';
import { OrgCaller } from '../auth/caller';
import { InvitationEntity } from '../database/entities';
import { PersonResponse } from './dto/person.response';
import { OrgPeopleController } from './org-people.controller';
import { OrgPeopleService } from './org-people.service';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const TENANT = 'tenant-1';
const caller = (role: string): OrgCaller => ({
  id: 'owner-1',
  email: 'owner@acme.example',
  userType: 'org',
  tenantId: TENANT,
  role,
});

describe(OrgPeopleService.name, () => {
  // The invitations are real rows, on in-memory SQLite with the real migrations; the members are in memory.
  let dataSource: DataSource;
  let rows: Repository<InvitationEntity>;
  let identity: MemoryIdentityStore;
  let service: OrgPeopleService;

  const invite = (id: string, email: string, overrides: Partial<InvitationEntity> = {}) =>
    rows.insert({
      id,
      tenantId: TENANT,
      email,
      role: 'member',
      status: 'pending',
      expiresAt: new Date(NOW.getTime() + 1_000),
      invitedBy: 'owner-1',
      createdAt: NOW,
      ...overrides,
    });
  const join = (id: string, email: string) =>
    identity.add({ id, email, userType: 'org', tenantId: TENANT, role: 'member' });

  /** Every page at `limit`, followed by its cursors. */
  async function allPages(role: string, limit: number): Promise<PersonResponse[][]> {
    const pages: PersonResponse[][] = [];
    let cursor: string | undefined;
    do {
      const page = await service.list(caller(role), { limit: String(limit), ...(cursor && { cursor }) });
      pages.push(page.people);
      cursor = page.nextCursor;
    } while (cursor && pages.length < 100);
    return pages;
  }

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    rows = dataSource.getRepository(InvitationEntity);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(async () => {
    await rows.clear();
    identity = new MemoryIdentityStore();
    const store = invitationsStoreOn(dataSource, new TestClock(NOW));
    service = new OrgPeopleService(identity, store, new TestClock(NOW), grantsStoreOn(dataSource));
  });

  describe('a merged keyset over members and invitations', () => {
    beforeEach(async () => {
      // Shared e-mails, several open invitations to one address, accents, underscores and capitals.
      join('u-1', 'a.b@x');
      join('u-2', 'b@x');
      join('u-3', 'é@x');
      join('u-4', 'B@x');
      await invite('i-1', 'a_b@x');
      await invite('i-2', 'b@x');
      await invite('i-3', 'b@x');
      await invite('i-4', 'b@x', { status: 'expired' });
      await invite('i-5', 'e@x', { expiresAt: new Date(NOW.getTime() - 1) });
      await invite('i-6', 'c@x', { status: 'accepted' });
      await invite('i-7', 'd@x', { status: 'revoked' });
    });

    const ORDER = ['u-4', 'u-1', 'i-1', 'i-2', 'i-3', 'i-4', 'u-2', 'i-5', 'u-3'];

    it('lists members and open invitations by e-mail (code points), then kind, then id; accepted and revoked left out', async () => {
      const page = await service.list(caller('owner'), {});
      expect(page).toEqual({ people: expect.any(Array) });
      expect(page.people.map((person) => person.id)).toEqual(ORDER);
      expect(page.people.find((person) => person.id === 'i-5')).toMatchObject({
        kind: 'invitation',
        status: 'expired',
      });
    });

    it.each([1, 2, 3, 4, 5, 8, 9])(
      'an owner paging by %i gets the unpaged list, each page at most limit rows',
      async (limit) => {
        const pages = await allPages('owner', limit);
        expect(pages.flat().map((person) => person.id)).toEqual(ORDER);
        expect(pages.every((page) => page.length <= limit)).toBe(true);
      },
    );

    it.each([1, 2, 3, 4, 5, 8, 9])(
      'a member paging by %i gets the unpaged list, with no invitation id in a row or a cursor',
      async (limit) => {
        const unpaged = (await service.list(caller('member'), {})).people;
        const pages = await allPages('member', limit);
        expect(pages.flat()).toEqual(unpaged);
        expect(unpaged.filter((person) => person.kind === 'invitation').map((person) => person.id)).toEqual([
          null,
          null,
          null,
          null,
          null,
        ]);
        // Only a page of one address's invitations, more of them than the limit, goes past it.
        for (const page of pages.filter((page) => page.length > limit)) {
          expect(new Set(page.map((person) => `${person.kind} ${person.email}`)).size).toBe(1);
        }
      },
    );

    it("a member's cursors hold no invitation id", async () => {
      let cursor: string | undefined;
      do {
        const page = await service.list(caller('member'), { limit: '1', ...(cursor && { cursor }) });
        cursor = page.nextCursor;
        if (cursor) expect(Buffer.from(cursor, 'base64url').toString()).not.toMatch(/i-\d/);
      } while (cursor);
    });
  });

  it('a failing identity store is the route\'s 500 "Failed to list people"', async () => {
    identity.failure = new Error('store down');
    expect(await apiFailure(service.list(caller('owner'), {}), OrgPeopleController.prototype.listPeople)).toEqual({
      status: 500,
      body: { error: 'Failed to list people' },
    });
  });
});
