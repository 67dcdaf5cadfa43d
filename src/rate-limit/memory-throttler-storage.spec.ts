import { MemoryThrottlerStorage } from './memory-throttler-storage';

const WINDOW_MS = 60_000;

describe(MemoryThrottlerStorage.name, () => {
  let storage: MemoryThrottlerStorage;
  let now: number;
  beforeEach(() => {
    now = Date.UTC(2026, 0, 1);
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    storage = new MemoryThrottlerStorage();
  });
  afterEach(() => {
    storage.onApplicationShutdown();
    jest.restoreAllMocks();
  });
  const hit = () => storage.increment('caller', WINDOW_MS, 2, WINDOW_MS, 'default');

  it('counts in a fixed window that opens at the first request, as the Redis script does', async () => {
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    now += 20_000;
    expect(await hit()).toEqual({ totalHits: 2, timeToExpire: 40, isBlocked: false, timeToBlockExpire: 0 });
    now += 40_000;
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('past the limit, refuses for a whole block from that request, whatever the window; then counts anew', async () => {
    await hit();
    await hit();
    now += 50_000;
    expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 10, isBlocked: true, timeToBlockExpire: 60 });
    now += 30_000; // the window is over, the block is not
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 30 });
    now += 30_000;
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false });
  });

  it('peek reads the counter without counting: nothing open, then hits and the end of the window, then the block', async () => {
    expect(await storage.peek('caller', 'default')).toEqual({ totalHits: 0, windowEndsInMs: null, blockEndsInMs: 0 });
    await hit();
    now += 1_500;
    expect(await storage.peek('caller', 'default')).toEqual({ totalHits: 1, windowEndsInMs: 58_500, blockEndsInMs: 0 });
    expect(await storage.peek('caller', 'default')).toEqual({ totalHits: 1, windowEndsInMs: 58_500, blockEndsInMs: 0 });
    await hit();
    await hit();
    expect(await storage.peek('caller', 'default')).toEqual({
      totalHits: 3,
      windowEndsInMs: 58_500,
      blockEndsInMs: 60_000,
    });
    expect(await storage.peek('someone-else', 'default')).toEqual({
      totalHits: 0,
      windowEndsInMs: null,
      blockEndsInMs: 0,
    });
    now += 60_000;
    expect(await storage.peek('caller', 'default')).toEqual({ totalHits: 0, windowEndsInMs: null, blockEndsInMs: 0 });
  });

  it('reserve grants what the window has left, opening one if needed, never past a block nor starting one; release returns', async () => {
    const reserve = (wanted: number) => storage.reserve('caller', WINDOW_MS, 2, wanted, 'default');
    expect(await reserve(0)).toEqual({ granted: 0, state: { totalHits: 0, windowEndsInMs: null, blockEndsInMs: 0 } });
    expect(await reserve(3)).toEqual({
      granted: 2,
      state: { totalHits: 2, windowEndsInMs: WINDOW_MS, blockEndsInMs: 0 },
    });
    expect((await reserve(1)).granted).toBe(0);
    await storage.release('caller', 1, 'default');
    expect(await reserve(5)).toMatchObject({ granted: 1, state: { totalHits: 2, blockEndsInMs: 0 } });
    await storage.release('caller', 5, 'default');
    expect(await storage.peek('caller', 'default')).toMatchObject({ totalHits: 0 });
    now += 30_000;
    await hit();
    await hit();
    await hit(); // blocked by the single request past the limit
    now += 40_000; // the window is over, the block is not
    expect((await reserve(1)).granted).toBe(0);
  });

  it('advance moves every window and block closer to its end: those with that much or less left end, the others shrink', async () => {
    await hit();
    await hit();
    now += 10_000;
    await hit(); // blocked: the window ends in 50 s, the block in 60 s
    await storage.increment('other', WINDOW_MS, 2, WINDOW_MS, 'default'); // its window ends in 60 s
    await storage.advance(50_000);
    expect(await storage.peek('caller', 'default')).toEqual({
      totalHits: 0,
      windowEndsInMs: null,
      blockEndsInMs: 10_000,
    });
    expect(await storage.peek('other', 'default')).toEqual({ totalHits: 1, windowEndsInMs: 10_000, blockEndsInMs: 0 });
    await storage.advance(10_000);
    expect(await storage.peek('other', 'default')).toEqual({ totalHits: 0, windowEndsInMs: null, blockEndsInMs: 0 });
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });
});
