import { PreparedStatements, Row } from './prepared-statements';
import { TenantStatusReader } from './tenant-status-reader';

/** Statements whose reads wait until `answer` is called, and count themselves. */
function heldStatements() {
  const pending: { resolve: (rows: Row[]) => void; reject: (error: Error) => void }[] = [];
  const statements = {
    reads: 0,
    first: (_sql: string, [id]: unknown[]) =>
      new Promise<Row | undefined>((resolve, reject) => {
        statements.reads++;
        pending.push({ resolve: (rows) => resolve(rows[0]), reject });
      }).then((row) => (row ? { ...row, id } : undefined)),
  };
  const answer = (status: string) => pending.shift()!.resolve([{ status }]);
  const fail = (error: Error) => pending.shift()!.reject(error);
  return { statements, answer, fail };
}

describe(TenantStatusReader.name, () => {
  it('statusOfShared: asks for one tenant while its read is on the way share that read', async () => {
    const { statements, answer } = heldStatements();
    const reader = new TenantStatusReader(statements as unknown as PreparedStatements);
    const asks = [reader.statusOfShared('t-1'), reader.statusOfShared('t-1'), reader.statusOfShared('t-2')];
    expect(statements.reads).toBe(2);
    answer('suspended');
    answer('active');
    expect(await Promise.all(asks)).toEqual(['suspended', 'suspended', 'active']);
  });

  it('statusOfShared: an ask after the read settled reads again, and sees a change', async () => {
    const { statements, answer } = heldStatements();
    const reader = new TenantStatusReader(statements as unknown as PreparedStatements);
    const first = reader.statusOfShared('t-1');
    answer('active');
    expect(await first).toBe('active');
    const second = reader.statusOfShared('t-1');
    answer('suspended');
    expect(await second).toBe('suspended');
    expect(statements.reads).toBe(2);
  });

  it('statusOfShared: a failed read fails the asks that shared it, and the next ask reads again', async () => {
    const { statements, answer, fail } = heldStatements();
    const reader = new TenantStatusReader(statements as unknown as PreparedStatements);
    const asks = [reader.statusOfShared('t-1'), reader.statusOfShared('t-1')];
    fail(new Error('connection lost'));
    for (const ask of asks) await expect(ask).rejects.toThrow('connection lost');
    const next = reader.statusOfShared('t-1');
    answer('active');
    expect(await next).toBe('active');
    expect(statements.reads).toBe(2);
  });

  it('statusOf never shares: each ask is a read of its own', async () => {
    const { statements, answer } = heldStatements();
    const reader = new TenantStatusReader(statements as unknown as PreparedStatements);
    const asks = [reader.statusOf('t-1'), reader.statusOf('t-1')];
    expect(statements.reads).toBe(2);
    answer('active');
    answer('deleted');
    expect(await Promise.all(asks)).toEqual(['active', 'deleted']);
  });
});
