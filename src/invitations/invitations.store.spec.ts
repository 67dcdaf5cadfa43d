import { DataSource, Repository } from 'typeorm';
import { invitationsStoreOn, memoryDataSource } from '../../test/support/memory-data-source';
import { withoutTable } from '../../test/support/without-table';
import { AuditEventEntity, InvitationEmailOutboxEntity, InvitationEntity, TenantEntity } from '../database/entities';
import { InvitationsStore } from './invitations.store';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const INVITER = { id: 'owner-1', email: 'owner@acme.example' };

/** The store against a real (in-memory SQLite) database, on the real migrations. */
describe(InvitationsStore.name, () => {
  let dataSource: DataSource;
  let invitations: Repository<InvitationEntity>;
  let tenants: Repository<TenantEntity>;
  let store: InvitationsStore;
  let sequence = 0;

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    invitations = dataSource.getRepository(InvitationEntity);
    tenants = dataSource.getRepository(TenantEntity);
    store = invitationsStoreOn(dataSource);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(async () => {
    await dataSource.getRepository(InvitationEmailOutboxEntity).clear();
    await dataSource.getRepository(AuditEventEntity).clear();
    await invitations.clear();
    await tenants.clear();
  });

  /** An invitation row, inserted unless `insert` is false. */
  async function invitation(overrides: Partial<InvitationEntity> = {}, insert = true): Promise<InvitationEntity> {
    const row: InvitationEntity = {
      id: `abcdef00-0000-4000-8000-${String(++sequence).padStart(12, '0')}`,
      tenantId: 'tenant-1',
      email: 'invitee@example.com',
      role: 'member',
      status: 'pending',
      expiresAt: new Date(NOW.getTime() + 7 * DAY),
      invitedBy: 'inviter',
      createdAt: NOW,
      ...overrides,
    };
    if (insert) await invitations.insert(row);
    return row;
  }
  const statusOf = async (id: string) => (await invitations.findOneByOrFail({ id })).status;
  /** The audit events stored so far: type, target and data. */
  const auditEvents = async () =>
    (await dataSource.getRepository(AuditEventEntity).find()).map(
      ({ type, actorId, targetType, targetId, targetEmail, data }) => ({
        type,
        actorId,
        target: [targetType, targetId, targetEmail],
        data: JSON.parse(data),
      }),
    );

  describe('findById', () => {
    it('reads the invitation with its timestamps in UTC', async () => {
      const row = await invitation();
      expect(await store.findById(row.id)).toEqual(row);
    });

    it('is null for an unknown id and for look-alikes of a known one', async () => {
      const row = await invitation();
      expect(await store.findById('abcdef00-0000-4000-8000-999999999999')).toBeNull();
      expect(await store.findById(row.id.toUpperCase())).toBeNull();
      expect(await store.findById(`${row.id} `)).toBeNull();
      expect(await store.findById("' OR 1=1 --")).toBeNull();
    });
  });

  describe('create', () => {
    const email = (invitation: InvitationEntity) => ({
      to: 'Invitee@Example.com',
      tenantName: 'Acme',
      inviterEmail: 'owner@acme.example',
      role: invitation.role,
      expiresAt: invitation.expiresAt,
      link: `https://portal.example.com/invitations/${invitation.id}`,
    });
    const outboxRows = () => dataSource.getRepository(InvitationEmailOutboxEntity).find();

    it('stores the invitation and the pending outbox row of its e-mail', async () => {
      const row = await invitation({ id: 'abcdef00-0000-4000-8000-00000000c0de' }, false);
      await store.create(row, email(row), INVITER);
      expect(await store.findById(row.id)).toEqual(row);
      const [outbox] = await outboxRows();
      expect(outbox).toMatchObject({
        invitationId: row.id,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: NOW,
        createdAt: NOW,
      });
      expect(JSON.parse(outbox.payload)).toEqual({
        ...email(row),
        tenantId: 'tenant-1',
        expiresAt: row.expiresAt.toISOString(),
      });
      expect(await auditEvents()).toEqual([
        {
          type: 'invitation.created',
          actorId: 'owner-1',
          target: ['invitation', null, 'invitee@example.com'],
          data: { role: 'member', expiresAt: row.expiresAt.toISOString() },
        },
      ]);
    });

    it.each(['tenant_invitations', 'invitation_email_outbox', 'audit_events'])(
      'writes no row when %s cannot be written',
      async (table) => {
        const row = await invitation({}, false);
        await withoutTable(dataSource, table, async () => {
          // better-sqlite3's errors may come from another test file's realm: matched by message, not by class.
          await expect(store.create(row, email(row), INVITER)).rejects.toMatchObject({
            message: expect.stringContaining('no such table'),
          });
        });
        expect(await invitations.count()).toBe(0);
        expect(await outboxRows()).toEqual([]);
        if (table !== 'audit_events') expect(await auditEvents()).toEqual([]);
      },
    );
  });

  describe('findTenantName', () => {
    it("is the tenant's name, or null when the tenant or its name is absent", async () => {
      const tenant = { type: 'organisation', status: 'pending_owner', createdAt: NOW };
      await tenants.insert([
        { ...tenant, id: 'named', name: 'Acme' },
        { ...tenant, id: 'nameless', name: null },
      ]);
      expect(await store.findTenantName('named')).toBe('Acme');
      expect(await store.findTenantName('nameless')).toBeNull();
      expect(await store.findTenantName('absent')).toBeNull();
    });
  });

  describe('markExpired', () => {
    it('stores expired on a pending invitation only, and says whether it did', async () => {
      const pending = await invitation();
      const accepted = await invitation({ status: 'accepted' });
      expect(await store.markExpired(pending)).toBe(true);
      expect(await store.markExpired(pending)).toBe(false);
      expect(await store.markExpired(accepted)).toBe(false);
      expect(await statusOf(pending.id)).toBe('expired');
      expect(await statusOf(accepted.id)).toBe('accepted');
      expect(await auditEvents()).toEqual([
        {
          type: 'invitation.expired',
          actorId: null,
          target: ['invitation', null, pending.email],
          data: { role: 'member', expiresAt: pending.expiresAt.toISOString() },
        },
      ]);
    });

    it('leaves the invitation pending when its event cannot be written', async () => {
      const pending = await invitation();
      await withoutTable(dataSource, 'audit_events', async () => {
        await expect(store.markExpired(pending)).rejects.toMatchObject({
          message: expect.stringContaining('no such table'),
        });
      });
      expect(await statusOf(pending.id)).toBe('pending');
    });
  });

  describe('accept', () => {
    it('accepts a pending invitation once: the second call gets false', async () => {
      const row = await invitation();
      const other = await invitation();
      expect(await store.accept(row, NOW)).toBe(true);
      expect(await store.accept(row, NOW)).toBe(false);
      expect(await statusOf(row.id)).toBe('accepted');
      expect(await statusOf(other.id)).toBe('pending');
      expect(await auditEvents()).toEqual([
        {
          type: 'invitation.accepted',
          actorId: null,
          target: ['invitation', null, row.email],
          data: { role: 'member', invitedBy: 'inviter' },
        },
      ]);
    });

    it('leaves the invitation pending when its event cannot be written', async () => {
      const row = await invitation();
      await withoutTable(dataSource, 'audit_events', async () => {
        await expect(store.accept(row, NOW)).rejects.toMatchObject({
          message: expect.stringContaining('no such table'),
        });
      });
      expect(await statusOf(row.id)).toBe('pending');
    });

    it('accepts at expiresAt itself, which is not earlier than now', async () => {
      const row = await invitation({ expiresAt: NOW });
      expect(await store.accept(row, NOW)).toBe(true);
    });

    it('refuses an invitation whose expiresAt is earlier than now, and leaves it pending', async () => {
      const row = await invitation({ expiresAt: new Date(NOW.getTime() - 1) });
      expect(await store.accept(row, NOW)).toBe(false);
      expect(await statusOf(row.id)).toBe('pending');
      expect(await auditEvents()).toEqual([]);
    });

    it("refuses an expires_at of '2000-01-01 00:00:00' written with raw SQL", async () => {
      const row = await invitation();
      await dataSource.query(`UPDATE tenant_invitations SET expires_at = '2000-01-01 00:00:00' WHERE id = ?`, [row.id]);
      expect((await store.findById(row.id))?.expiresAt).toEqual(new Date('2000-01-01T00:00:00.000Z'));
      expect(await store.accept(row, NOW)).toBe(false);
    });

    it('judges expiry by expiresAt: a stored status of expired before expiresAt is accepted', async () => {
      const row = await invitation({ status: 'expired' });
      expect(await store.accept(row, NOW)).toBe(true);
      expect(await statusOf(row.id)).toBe('accepted');
    });

    it('is false for an unknown id', async () => {
      expect(await store.accept(await invitation({}, false), NOW)).toBe(false);
    });
  });
});
