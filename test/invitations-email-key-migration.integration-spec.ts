import { emailKey } from '../src/common/email-comparison';
import { invitationsStoreOn } from './support/memory-data-source';
import { undoMigrationsThrough, useDatabaseBefore } from './support/undo-migrations';

const NOW = new Date('2026-01-10T00:00:00.000Z');

/**
 * The AddInvitationsEmailKey migration on a real database (SQLite, and MariaDB in integration:mariadb):
 * invitations written before it are found by the bulk route's look-up of addresses.
 */
describe('migration AddInvitationsEmailKey', () => {
  const db = useDatabaseBefore('AddInvitationsEmailKey');

  it('back-fills email_key on every existing row, in batches, and look-alikes of a pending one are found', async () => {
    const legacy = [
      ['old-kate', 'Kate@Example.com', 'pending', '2026-02-01 00:00:00'],
      ['old-strasse', 'stra\u00DFe@example.com', 'pending', '2026-02-01 00:00:00'],
      ['old-late', 'late@example.com', 'pending', '2026-01-01 00:00:00'],
      ['old-used', 'used@example.com', 'accepted', '2026-02-01 00:00:00'],
      // More than one batch of the migration (500 rows).
      ...Array.from({ length: 501 }, (_, i) => [
        `bulk-${String(i).padStart(3, '0')}`,
        `bulk-${i}@example.com`,
        'pending',
        '2026-02-01 00:00:00',
      ]),
    ];
    const placeholders = legacy.map(() => "(?, 'tenant-1', ?, 'member', ?, ?, 'owner', '2026-01-01 00:00:00')");
    await db.dataSource.query(
      'INSERT INTO tenant_invitations (id, tenant_id, email, role, status, expires_at, invited_by, created_at) ' +
        `VALUES ${placeholders.join(', ')}`,
      legacy.flat(),
    );

    await db.dataSource.runMigrations();

    const rows: { email: string; email_key: string }[] = await db.dataSource.query(
      'SELECT email, email_key FROM tenant_invitations',
    );
    expect(rows).toHaveLength(legacy.length);
    for (const row of rows) expect(row.email_key).toBe(emailKey(row.email));

    const store = invitationsStoreOn(db.dataSource);
    const asked = ['\u212AATE@example.com', 'STRASSE@example.com', 'late@example.com', 'used@example.com', 'new@x.org'];
    const found = await store.findAcceptableKeys('tenant-1', asked.map(emailKey), NOW);
    expect([...found].sort()).toEqual([emailKey('kate@example.com'), emailKey('strasse@example.com')].sort());
    expect(await store.findAcceptableKeys('tenant-2', asked.map(emailKey), NOW)).toEqual(new Set());
  });

  it('reverts without losing a row, and applies again', async () => {
    await undoMigrationsThrough(db.dataSource, 'AddInvitationsEmailKey');
    const [{ n }] = await db.dataSource.query('SELECT COUNT(*) AS n FROM tenant_invitations');
    expect(Number(n)).toBe(4 + 501);
    await db.dataSource.runMigrations();
    const [{ missing }] = await db.dataSource.query(
      'SELECT COUNT(*) AS missing FROM tenant_invitations WHERE email_key IS NULL',
    );
    expect(Number(missing)).toBe(0);
  });
});
