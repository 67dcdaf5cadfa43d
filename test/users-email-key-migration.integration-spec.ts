import { emailKey } from '../src/common/email-comparison';
import { UserEntity } from '../src/database/entities';
import { PreparedStatements } from '../src/database/prepared-statements';
import { LocalIdentityStore } from '../src/identity/local/local-identity-store';
import { undoMigrationsThrough, useDatabaseBefore } from './support/undo-migrations';

/**
 * The AddUsersEmailKey migration on a real database (SQLite, and MariaDB in e2e:mariadb):
 * users written before it keep working, none is lost or merged.
 */
describe('migration AddUsersEmailKey', () => {
  const db = useDatabaseBefore('AddUsersEmailKey');

  it('back-fills email_key on every existing row, in batches, and the rows are found by look-alikes', async () => {
    const legacy = [
      ['old-kate', 'Kate@Example.com'],
      ['old-strasse', 'stra\u00DFe@example.com'],
      ['old-jeff', 'je\uFB00@example.com'],
      // More than one batch of the migration (500 rows).
      ...Array.from({ length: 501 }, (_, i) => [`bulk-${String(i).padStart(3, '0')}`, `bulk-${i}@example.com`]),
    ];
    const placeholders = legacy.map(() => "(?, ?, '2025-01-01 00:00:00')").join(', ');
    await db.dataSource.query(`INSERT INTO users (id, email, created_at) VALUES ${placeholders}`, legacy.flat());

    await db.dataSource.runMigrations();

    const rows = await db.dataSource.getRepository(UserEntity).find({ order: { id: 'ASC' } });
    expect(rows).toHaveLength(legacy.length);
    for (const row of rows) expect(row.emailKey).toBe(emailKey(row.email));
    expect(
      Object.fromEntries(rows.filter((row) => row.id.startsWith('old-')).map((row) => [row.id, row.email])),
    ).toEqual({
      'old-kate': 'Kate@Example.com',
      'old-strasse': 'stra\u00DFe@example.com',
      'old-jeff': 'je\uFB00@example.com',
    });

    const store = new LocalIdentityStore(
      db.dataSource.getRepository(UserEntity),
      new PreparedStatements(db.dataSource),
    );
    const ids = async (email: string) => (await store.findByEmail(email)).map((user) => user.id);
    expect(await ids('\u212AATE@example.com')).toEqual(['old-kate']);
    expect(await ids('STRASSE@example.com')).toEqual(['old-strasse']);
    expect(await ids('jeff@EXAMPLE.com')).toEqual(['old-jeff']);
  });

  it('keeps users.email unique and case-insensitive', async () => {
    await expect(
      db.dataSource.query(
        "INSERT INTO users (id, email, created_at) VALUES ('new-kate', 'KATE@EXAMPLE.COM', '2025-01-01 00:00:00')",
      ),
    ).rejects.toThrow(/UNIQUE|Duplicate/i);
  });

  it('reverts without losing a row, and applies again', async () => {
    await undoMigrationsThrough(db.dataSource, 'AddUsersEmailKey');
    const [{ n }] = await db.dataSource.query('SELECT COUNT(*) AS n FROM users');
    expect(Number(n)).toBe(3 + 501);
    await db.dataSource.runMigrations();
    const [{ missing }] = await db.dataSource.query('SELECT COUNT(*) AS missing FROM users WHERE email_key IS NULL');
    expect(Number(missing)).toBe(0);
  });
});
