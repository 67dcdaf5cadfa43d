import { In } from 'typeorm';
import { AtomicWriter, RequiredUpdate } from '../src/database/atomic-writer';
import { CoalescedUpdates } from '../src/database/coalesced-updates';
import { MultiStatementPool } from '../src/database/multi-statement-pool';
import { PreparedStatements } from '../src/database/prepared-statements';
import { InvitationEntity, TenantEntity } from '../src/database/entities';
import { useTestApp } from './support/suites';
import { e2eDatabase } from './support/test-database';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const tenant = (id: string, name = id): TenantEntity => ({
  id,
  name,
  type: 'business',
  status: 'pending_owner',
  createdAt: NOW,
});
const invitation = (id: string): InvitationEntity => ({
  id,
  tenantId: 't-0',
  email: `${id}@example.com`,
  role: 'member',
  status: 'pending',
  expiresAt: NOW,
  invitedBy: 'owner',
  createdAt: NOW,
});
const revokeIfPending = (id: string): RequiredUpdate => [
  "UPDATE tenant_invitations SET status = 'revoked' WHERE id = ? AND status = 'pending'",
  [id],
];

/**
 * AtomicWriter on the suite's database: on MariaDB, a whole transaction in one round trip on a pool
 * that allows several statements per query; on SQLite, one synchronous transaction.
 */
describe('AtomicWriter', () => {
  const { t } = useTestApp();
  let writer: AtomicWriter;
  let sequence = 0;
  const tenants = () => t.dataSource.getRepository(TenantEntity);
  const invitations = () => t.dataSource.getRepository(InvitationEntity);
  const statusOf = async (id: string) => (await invitations().findOneByOrFail({ id })).status;
  /** A pending invitation in the database: the target of a compare-and-set. */
  const pending = async () => {
    const row = invitation(`inv-${++sequence}`);
    await invitations().insert(row);
    return row.id;
  };

  beforeAll(() => (writer = t.app.get(AtomicWriter)));

  it('inserts every row, in several tables, and answers true', async () => {
    const id = `inv-${++sequence}`;
    expect(
      await writer.insert([
        [TenantEntity, tenant(`t-${sequence}`)],
        [InvitationEntity, invitation(id)],
      ]),
    ).toBe(true);
    expect(await tenants().findOneByOrFail({ id: `t-${sequence}` })).toEqual(tenant(`t-${sequence}`));
    expect(await invitations().findOneByOrFail({ id })).toEqual(invitation(id));
  });

  it('with onlyIf: updates and inserts together, and says so', async () => {
    const id = await pending();
    expect(await writer.insert([[TenantEntity, tenant(`t-${sequence}`)]], revokeIfPending(id))).toBe(true);
    expect(await statusOf(id)).toBe('revoked');
    expect(await tenants().countBy({ id: `t-${sequence}` })).toBe(1);
  });

  it('with onlyIf: an update that changes no row writes nothing and answers false', async () => {
    const id = await pending();
    await invitations().update({ id }, { status: 'accepted' });
    const rows = [tenant(`t-${sequence}`), tenant(`u-${sequence}`)];
    expect(
      await writer.insert(
        rows.map((row) => [TenantEntity, row]),
        revokeIfPending(id),
      ),
    ).toBe(false);
    expect(await statusOf(id)).toBe('accepted');
    expect(await tenants().countBy({ id: In(rows.map((row) => row.id)) })).toBe(0);
  });

  it('a failed insert undoes the update and the inserts before it, and the next write goes through', async () => {
    const id = await pending();
    await tenants().insert(tenant(`taken-${sequence}`));
    // The second insert fails: its primary key is taken.
    const failure = await writer
      .insert(
        [
          [TenantEntity, tenant(`t-${sequence}`)],
          [TenantEntity, tenant(`taken-${sequence}`)],
        ],
        revokeIfPending(id),
      )
      .catch((error: Error) => error);
    expect(String((failure as Error).message)).toMatch(/UNIQUE constraint failed: tenants\.id|Duplicate entry/);
    expect(await statusOf(id)).toBe('pending');
    expect(await tenants().countBy({ id: `t-${sequence}` })).toBe(0);

    expect(await writer.insert([[TenantEntity, tenant(`t-${sequence}`)]], revokeIfPending(id))).toBe(true);
    expect(await statusOf(id)).toBe('revoked');
  });

  it('of parallel calls with the same compare-and-set, exactly one goes through', async () => {
    const id = await pending();
    const ids = Array.from({ length: 8 }, (_, i) => `race-${sequence}-${i}`);
    const answers = await Promise.all(
      ids.map((tenantId) => writer.insert([[TenantEntity, tenant(tenantId)]], revokeIfPending(id))),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect((await tenants().findBy({ id: In(ids) })).map((row) => row.id)).toEqual([ids[answers.indexOf(true)]]);
  });

  describe('insertIfAll: several compare-and-sets', () => {
    const renameIfNamed = (id: string, from: string, to: string): RequiredUpdate => [
      'UPDATE tenants SET name = ? WHERE id = ? AND name = ?',
      [to, id, from],
    ];

    it('every update changes its row: all of them and the inserts are written, and it says so', async () => {
      const id = await pending();
      await tenants().insert(tenant(`named-${sequence}`, 'before'));
      const inserted = tenant(`t-${sequence}`);
      expect(
        await writer.insertIfAll(
          [[TenantEntity, inserted]],
          [revokeIfPending(id), renameIfNamed(`named-${sequence}`, 'before', 'after')],
        ),
      ).toBe(true);
      expect(await statusOf(id)).toBe('revoked');
      expect((await tenants().findOneByOrFail({ id: `named-${sequence}` })).name).toBe('after');
      expect(await tenants().countBy({ id: inserted.id })).toBe(1);
    });

    it('a later update that changes no row undoes the earlier ones: nothing is written, and the answer is false', async () => {
      const id = await pending();
      await tenants().insert(tenant(`named-${sequence}`, 'changed meanwhile'));
      const inserted = tenant(`t-${sequence}`);
      expect(
        await writer.insertIfAll(
          [[TenantEntity, inserted]],
          [revokeIfPending(id), renameIfNamed(`named-${sequence}`, 'before', 'after')],
        ),
      ).toBe(false);
      expect(await statusOf(id)).toBe('pending');
      expect((await tenants().findOneByOrFail({ id: `named-${sequence}` })).name).toBe('changed meanwhile');
      expect(await tenants().countBy({ id: inserted.id })).toBe(0);
      // The connection is clean: the next write goes through.
      expect(
        await writer.insertIfAll(
          [],
          [revokeIfPending(id), renameIfNamed(`named-${sequence}`, 'changed meanwhile', 'after')],
        ),
      ).toBe(true);
    });

    it('a failed insert undoes every update', async () => {
      const id = await pending();
      await tenants().insert([tenant(`named-${sequence}`, 'before'), tenant(`taken-${sequence}`)]);
      const failure = await writer
        .insertIfAll(
          [[TenantEntity, tenant(`taken-${sequence}`)]],
          [revokeIfPending(id), renameIfNamed(`named-${sequence}`, 'before', 'after')],
        )
        .catch((error: Error) => error);
      expect(String((failure as Error).message)).toMatch(/UNIQUE constraint failed: tenants\.id|Duplicate entry/);
      expect(await statusOf(id)).toBe('pending');
      expect((await tenants().findOneByOrFail({ id: `named-${sequence}` })).name).toBe('before');
    });
  });

  describe('insertIfAll with deletes: rows taken away in the same transaction', () => {
    const deleteNamed = (name: string): [string, unknown[]] => ['DELETE FROM tenants WHERE name = ?', [name]];

    it.each([
      ['no compare-and-set', 0],
      ['one compare-and-set', 1],
      ['two compare-and-sets', 2],
    ])(
      '%s: the deletes run before the inserts (a replacement of rows under one key), whatever they count',
      async (_what, cas) => {
        const ids = await Promise.all([pending(), pending()]);
        const name = `replaced-${sequence}`;
        await tenants().insert([tenant(`old-a-${sequence}`, name), tenant(`old-b-${sequence}`, name)]);
        const replacement = tenant(`new-${sequence}`, name);
        expect(
          await writer.insertIfAll([[TenantEntity, replacement]], ids.slice(0, cas).map(revokeIfPending), [
            deleteNamed(name),
            deleteNamed('no such name'),
          ]),
        ).toBe(true);
        expect((await tenants().findBy({ name })).map((row) => row.id)).toEqual([replacement.id]);
      },
    );

    it.each([
      ['one compare-and-set', 1],
      ['two compare-and-sets', 2],
    ])('%s that changes no row: the deletes do not run either', async (_what, cas) => {
      const ids = await Promise.all([pending(), pending()]);
      await invitations().update({ id: ids[cas - 1] }, { status: 'accepted' });
      const name = `kept-${sequence}`;
      await tenants().insert(tenant(`old-${sequence}`, name));
      expect(await writer.insertIfAll([], ids.slice(0, cas).map(revokeIfPending), [deleteNamed(name)])).toBe(false);
      expect(await tenants().countBy({ name })).toBe(1);
    });

    it('a failed insert undoes the deletes', async () => {
      const name = `kept-${++sequence}`;
      await tenants().insert([tenant(`old-${sequence}`, name), tenant(`taken-${sequence}`)]);
      const failure = await writer
        .insertIfAll([[TenantEntity, tenant(`taken-${sequence}`)]], [], [deleteNamed(name)])
        .catch((error: Error) => error);
      expect(String((failure as Error).message)).toMatch(/UNIQUE constraint failed: tenants\.id|Duplicate entry/);
      expect(await tenants().countBy({ name })).toBe(1);
    });
  });

  describe('insertUnless: a query that must find nothing', () => {
    const tenantNamed = (name: string): [string, unknown[]] => [
      'SELECT 1 AS found FROM tenants WHERE name = ?',
      [name],
    ];

    it('finds nothing: the rows are written, and it says so', async () => {
      const id = `inv-${++sequence}`;
      expect(await writer.insertUnless([[InvitationEntity, invitation(id)]], tenantNamed('nobody'))).toBe(true);
      expect(await statusOf(id)).toBe('pending');
    });

    it('finds a row: nothing is written, and the answer is false', async () => {
      const id = `inv-${++sequence}`;
      await tenants().insert(tenant(`t-${sequence}`, `taken-${sequence}`));
      expect(
        await writer.insertUnless(
          [
            [TenantEntity, tenant(`t-new-${sequence}`)],
            [InvitationEntity, invitation(id)],
          ],
          tenantNamed(`taken-${sequence}`),
        ),
      ).toBe(false);
      expect(await invitations().findOneBy({ id })).toBeNull();
      expect(await tenants().findOneBy({ id: `t-new-${sequence}` })).toBeNull();
    });
  });

  // MySQL only: on SQLite a read costs no round trip, and InvitationsStore.acceptAtOnce does not use it.
  if (e2eDatabase() === 'mariadb') {
    describe('updateThenRead: a compare-and-set, the statements it guards, then a read, in one round trip', () => {
      const copyAsTenant: (id: string) => [string, unknown[]] = (id) => [
        "INSERT INTO tenants (id, name, type, status, created_at) SELECT CONCAT('t-', id), email, 'business', " +
          "'pending_owner', created_at FROM tenant_invitations WHERE id = ? AND @changed = 1",
        [id],
      ];
      const read = (id: string): [string, unknown[]] => [
        'SELECT id, status FROM tenant_invitations WHERE id = ?',
        [id],
      ];

      it('the update changes its row: the guarded rows are written from the database, and the read sees the change', async () => {
        const id = await pending();
        expect(await writer.updateThenRead(revokeIfPending(id), [copyAsTenant(id)], read(id))).toEqual({
          changed: true,
          rows: [{ id, status: 'revoked' }],
        });
        expect(await tenants().findOneByOrFail({ id: `t-${id}` })).toMatchObject({ name: `${id}@example.com` });
      });

      it('the update changes nothing: nothing is written, and the read tells why', async () => {
        const id = await pending();
        await invitations().update({ id }, { status: 'accepted' });
        expect(await writer.updateThenRead(revokeIfPending(id), [copyAsTenant(id)], read(id))).toEqual({
          changed: false,
          rows: [{ id, status: 'accepted' }],
        });
        expect(await tenants().countBy({ id: `t-${id}` })).toBe(0);
      });

      it('a failed guarded statement undoes the update', async () => {
        const id = await pending();
        await tenants().insert(tenant(`t-${id}`));
        await expect(writer.updateThenRead(revokeIfPending(id), [copyAsTenant(id)], read(id))).rejects.toThrow(
          /Duplicate entry/,
        );
        expect(await statusOf(id)).toBe('pending');
      });
    });
  }

  it('stores values as given: text that reads as SQL is not run', async () => {
    const name = "x'); DROP TABLE tenants; -- ; SELECT 1; \\' \"";
    expect(await writer.insert([[TenantEntity, tenant(`sql-${++sequence}`, name)]])).toBe(true);
    expect((await tenants().findOneByOrFail({ id: `sql-${sequence}` })).name).toBe(name);
  });
});

/** CoalescedUpdates on the suite's database: on MariaDB, the UPDATEs of one turn of the event loop in one round trip. */
describe('CoalescedUpdates', () => {
  const { t } = useTestApp();
  let sequence = 0;
  const invitations = () => t.dataSource.getRepository(InvitationEntity);
  const REVOKE = "UPDATE tenant_invitations SET status = 'revoked' WHERE id = ? AND status = 'pending'";
  const pending = async () => {
    const row = invitation(`co-${++sequence}`);
    await invitations().insert(row);
    return row.id;
  };
  const updates = () =>
    new CoalescedUpdates(t.dataSource, t.app.get(PreparedStatements), t.app.get(MultiStatementPool));

  it('gives each UPDATE its own count of changed rows, and sends those of one turn together on MySQL', async () => {
    const [first, second] = [await pending(), await pending()];
    await invitations().update({ id: second }, { status: 'accepted' });
    const roundTrips = jest.spyOn(t.app.get(MultiStatementPool), 'query');
    const coalesced = updates();
    const counts = await Promise.all([first, second, 'no-such-id'].map((id) => coalesced.changes(REVOKE, [id])));
    expect(counts).toEqual([1, 0, 0]);
    expect(roundTrips).toHaveBeenCalledTimes(t.dataSource.options.type === 'mysql' ? 1 : 0);
    expect((await invitations().findOneByOrFail({ id: first })).status).toBe('revoked');
    expect((await invitations().findOneByOrFail({ id: second })).status).toBe('accepted');
  });

  it('a failed statement fails every UPDATE of its batch, and the next batch goes through', async () => {
    const id = await pending();
    const coalesced = updates();
    const answers = await Promise.allSettled([
      coalesced.changes('UPDATE no_such_table SET a = 1 WHERE id = ?', [id]),
      coalesced.changes(REVOKE, [id]),
    ]);
    expect(answers[0].status).toBe('rejected');
    // Alone on SQLite; with the failed one, and not run, on MySQL.
    expect(answers[1]).toEqual(
      t.dataSource.options.type === 'mysql'
        ? expect.objectContaining({ status: 'rejected' })
        : { status: 'fulfilled', value: 1 },
    );
    expect(await coalesced.changes(REVOKE, [id])).toBe(t.dataSource.options.type === 'mysql' ? 1 : 0);
  });
});
