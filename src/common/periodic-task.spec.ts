import { PeriodicTask } from './periodic-task';

describe(PeriodicTask.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs first after `firstAfterMs`, then every `everyMs`; a failed run is reported and the next still comes; stop() ends', async () => {
    const runs: number[] = [];
    const errors: unknown[] = [];
    const task = new PeriodicTask(
      async () => {
        runs.push(Date.now());
        if (runs.length === 2) throw new Error('boom');
      },
      (error) => errors.push(error),
    );
    const start = Date.now();
    task.start(1_000, 5_000);
    await jest.advanceTimersByTimeAsync(999);
    expect(runs).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(runs.map((at) => at - start)).toEqual([1_000, 6_000, 11_000]);
    expect(errors).toEqual([new Error('boom')]);
    task.stop();
    await jest.advanceTimersByTimeAsync(20_000);
    expect(runs).toHaveLength(3);
  });
});
