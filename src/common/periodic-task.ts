/**
 * Runs a task on one instance's timer: first after `firstAfterMs`, then `everyMs` after each run
 * ends (never two at once). The timer does not keep the process alive; stop() ends it. A failed
 * run goes to `onError`, and the next run is scheduled all the same.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(firstAfterMs: number, everyMs: number): void {
    this.running = true;
    this.schedule(firstAfterMs, everyMs);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number, everyMs: number): void {
    this.timer = setTimeout(() => {
      this.task()
        .catch(this.onError)
        .finally(() => this.running && this.schedule(everyMs, everyMs));
    }, delayMs);
    this.timer.unref();
  }
}
