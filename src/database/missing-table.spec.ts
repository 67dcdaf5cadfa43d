import { DataSource, QueryFailedError } from 'typeorm';
import { isMissingTable } from './missing-table';

describe('isMissingTable', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE present (id TEXT PRIMARY KEY)');
  });
  afterAll(() => dataSource.destroy());

  const failureOf = (sql: string) =>
    dataSource.query(sql).then(
      () => null,
      (error: unknown) => error,
    );

  it('SQLite: a statement on a table that does not exist, as the driver refuses it', async () => {
    expect(isMissingTable(await failureOf('SELECT id FROM invitation_email_outbox'))).toBe(true);
  });

  it('MySQL and MariaDB: errno 1146, ER_NO_SUCH_TABLE, on the driver error', () => {
    const driverError = Object.assign(new Error("Table 'tenants.webhook_outbox' doesn't exist"), {
      code: 'ER_NO_SUCH_TABLE',
      errno: 1146,
    });
    expect(isMissingTable(new QueryFailedError('SELECT 1', [], driverError))).toBe(true);
  });

  it('not another failure: a unique violation, a lost connection', async () => {
    await dataSource.query("INSERT INTO present (id) VALUES ('a')");
    expect(isMissingTable(await failureOf("INSERT INTO present (id) VALUES ('a')"))).toBe(false);
    expect(isMissingTable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isMissingTable(undefined)).toBe(false);
  });
});
