import { InvitationEmailOutboxEntity } from '../src/database/entities';
import { MultiStatementPool } from '../src/database/multi-statement-pool';
import { OutboxRows } from '../src/database/outbox-rows';
import { PreparedStatements } from '../src/database/prepared-statements';
import { useTestApp } from './support/suites';

/**
 * The times of these rows are long after the real clock: the app's own outbox worker, which reads the
 * same table by the real clock, finds none of them due and leaves them alone.
 */
const NOW = new Date('2099-06-01T12:00:00.000Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const WORKER = 'this-worker';

describe('OutboxRows.due', () => {
  const { t } = useTestApp();
  let rows: OutboxRows<InvitationEmailOutboxEntity>;
  let sequence = 0;
  const table = () => t.dataSource.getRepository(InvitationEmailOutboxEntity);
  /** A pending row, due at NOW, with `changes`. */
  const outboxRow = (id: string, changes: Partial<InvitationEmailOutboxEntity> = {}): InvitationEmailOutboxEntity => ({
    id,
    invitationId: `invitation-${id}`,
    payload: '{}',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: NOW,
    claimedBy: null,
    claimedUntil: null,
    lastError: null,
    createdAt: NOW,
    sentAt: null,
    ...changes,
  });
  const row = async (changes: Partial<InvitationEmailOutboxEntity>) => {
    const id = `outbox-${++sequence}`;
    await table().insert(outboxRow(id, changes));
    return id;
  };

  beforeAll(() => {
    rows = new OutboxRows(
      t.dataSource,
      t.app.get(PreparedStatements),
      t.app.get(MultiStatementPool),
      InvitationEmailOutboxEntity,
      { status: 'sent', atColumn: 'sent_at' },
    );
  });
  beforeEach(() => table().clear());

  it('answers the rows a worker may claim, the longest due first, up to the limit', async () => {
    const lapsed = await row({
      status: 'sending',
      claimedBy: 'dead-worker',
      claimedUntil: minutes(-1),
      nextAttemptAt: minutes(-30),
    });
    const oldest = await row({ nextAttemptAt: minutes(-20) });
    const own = await row({
      status: 'sending',
      claimedBy: WORKER,
      claimedUntil: minutes(5),
      nextAttemptAt: minutes(-10),
    });
    const dueNow = await row({ nextAttemptAt: NOW });
    await row({ nextAttemptAt: minutes(1) }); // not due yet
    await row({ status: 'sending', claimedBy: 'live-worker', claimedUntil: minutes(5), nextAttemptAt: minutes(-40) }); // held
    await row({ status: 'sent', nextAttemptAt: minutes(-50), sentAt: minutes(-49) });
    await row({ status: 'failed', nextAttemptAt: minutes(-50) });

    expect(await rows.due(WORKER, NOW, 10)).toEqual([lapsed, oldest, own, dueNow]);
    expect(await rows.due(WORKER, NOW, 2)).toEqual([lapsed, oldest]);
  });

  it('reads no more rows for a round than the round takes, however long the backlog', async () => {
    await table().insert(
      Array.from({ length: 400 }, (_, i) => outboxRow(`backlog-${i}`, { nextAttemptAt: minutes(-i) })),
    );
    // The statement that `due` runs, run again on one connection whose counters can be read.
    const run = jest.spyOn(PreparedStatements.prototype, 'rows');
    expect(await rows.due(WORKER, NOW, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `backlog-${399 - i}`));
    const [sql, parameters] = run.mock.calls[0];
    if (t.dataSource.options.type !== 'mysql') return; // SQLite keeps no such counters
    const runner = t.dataSource.createQueryRunner();
    try {
      await runner.query('FLUSH STATUS');
      await runner.query(sql, parameters);
      const counters = (await runner.query("SHOW SESSION STATUS LIKE 'Handler_read%'")) as {
        Variable_name: string;
        Value: string;
      }[];
      const rowsRead = counters.reduce((sum, { Value }) => sum + Number(Value), 0);
      // About the limit (10) for each of the two index reads, not the 400 rows waiting.
      expect(rowsRead).toBeLessThan(50);
    } finally {
      await runner.release();
    }
  });
});
