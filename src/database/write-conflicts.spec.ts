import { retryingWriteConflicts, WRITE_CONFLICT_ATTEMPTS } from './write-conflicts';

const conflict = (errno: number) => Object.assign(new Error(`errno ${errno}`), { errno });

describe(retryingWriteConflicts.name, () => {
  it('runs a transaction that lost a write conflict (1213, 1205) again from its start, and answers its outcome', async () => {
    let attempts = 0;
    const outcome = await retryingWriteConflicts(async () => {
      attempts++;
      if (attempts === 1) throw conflict(1213);
      if (attempts === 2) throw conflict(1205);
      return 'done';
    });
    expect([outcome, attempts]).toEqual(['done', 3]);
  });

  it(`gives up after ${WRITE_CONFLICT_ATTEMPTS} attempts with the last conflict`, async () => {
    let attempts = 0;
    const failing = retryingWriteConflicts(async () => {
      attempts++;
      throw conflict(1213);
    });
    await expect(failing).rejects.toThrow('errno 1213');
    expect(attempts).toBe(WRITE_CONFLICT_ATTEMPTS);
  });

  it('never runs again a transaction that failed otherwise (a duplicate key, a lost connection)', async () => {
    let attempts = 0;
    const failing = retryingWriteConflicts(async () => {
      attempts++;
      throw Object.assign(new Error('lost'), { fatal: true, errno: 1062 });
    });
    await expect(failing).rejects.toThrow('lost');
    expect(attempts).toBe(1);
  });
});
