import { DataSource } from 'typeorm';

/** Reverts the newest migrations down to and including `name` (e.g. 'AddUsersEmailKey'), whatever came after it. */
export async function undoMigrationsThrough(dataSource: DataSource, name: string): Promise<void> {
  for (;;) {
    const [newest] = await dataSource.query('SELECT name FROM migrations ORDER BY timestamp DESC, id DESC LIMIT 1');
    if (!newest) throw new Error(`Migration ${name} is not applied`);
    await dataSource.undoLastMigration();
    if (String(newest.name).startsWith(name)) return;
  }
}
