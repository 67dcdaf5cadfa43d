import { KICK_SETTLE_MS, PollingLoop } from './polling-loop';

describe(PollingLoop.name, () => {
  const POLL_MS = 60_000; // never reached in these tests: every round here comes from the start, a kick or a full round
  const ROUND_MS = 30;
  let loop: PollingLoop;

  beforeEach(() => jest.useFakeTimers());
  afterEach(async () => {
    const stopped = loop.stop(1_000);
    await jest.runOnlyPendingTimersAsync();
    await stopped;
    jest.useRealTimers();
  });

  /** Starts a loop whose rounds last ROUND_MS and answer `full()`; the times its rounds started. */
  function startLoop(full: () => boolean = () => false): number[] {
    const starts: number[] = [];
    loop = new PollingLoop(async () => {
      starts.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, ROUND_MS));
      return full();
    }, POLL_MS);
    loop.start();
    return starts;
  }

  it('runs a round when started, and one at once on a kick while idle', async () => {
    const starts = startLoop();
    await jest.advanceTimersByTimeAsync(ROUND_MS + 1);
    expect(starts).toHaveLength(1);
    const kickedAt = Date.now();
    loop.kick();
    await jest.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([expect.any(Number), kickedAt]);
  });

  it('takes the kicks that come during a round in one round, KICK_SETTLE_MS after it ends', async () => {
    const starts = startLoop();
    await jest.advanceTimersByTimeAsync(1);
    for (let i = 0; i < 5; i++) loop.kick();
    await jest.advanceTimersByTimeAsync(3 * (ROUND_MS + KICK_SETTLE_MS));
    expect(starts).toHaveLength(2);
    expect(starts[1] - starts[0]).toBe(ROUND_MS + KICK_SETTLE_MS);
  });

  it('lets timers and I/O run between rounds that end without waiting (SQLite answers synchronously)', async () => {
    jest.useRealTimers();
    let rounds = 0;
    loop = new PollingLoop(async () => ++rounds < 1_000_000, POLL_MS);
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rounds).toBeGreaterThan(0);
    expect(rounds).toBeLessThan(1_000_000);
    await loop.stop(1_000);
    jest.useFakeTimers(); // as afterEach expects
  });

  it('follows a full round with another at once', async () => {
    let rounds = 0;
    const starts = startLoop(() => ++rounds < 3);
    await jest.advanceTimersByTimeAsync(5 * ROUND_MS);
    // The fake clock counts the setImmediate between rounds as 1 ms.
    expect(starts).toEqual([0, ROUND_MS + 1, 2 * (ROUND_MS + 1)].map((offset) => starts[0] + offset));
  });
});
