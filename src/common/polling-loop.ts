/**
 * A kick that comes while a round runs starts the next round this long after that one ends, not at
 * once: under a stream of kicks (an invite every few milliseconds), the work that comes in
 * meanwhile is then taken in one round, with one read of what is due, instead of a round each.
 */
export const KICK_SETTLE_MS = 20;

/**
 * Runs `round` in the background: every `intervalMs`, at once after a round that says more work
 * may be waiting (it returns true), and on `kick`: at once when idle, KICK_SETTLE_MS after the
 * round in progress otherwise. Never two rounds at a time. OutboxDeliveryLoop runs on it.
 */
export class PollingLoop {
  private stopped = true;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private kicked = false;

  constructor(
    private readonly round: () => Promise<boolean>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Looks for work now rather than at the next poll. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.kicked = true;
    else this.schedule(0);
  }

  /** Stops polling and waits up to `waitMs` for the round in progress: false when it was still running then. */
  async stop(waitMs: number): Promise<boolean> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.running) return true;
    let waiting: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      this.running.then(() => true),
      new Promise<boolean>((resolve) => (waiting = setTimeout(() => resolve(false), waitMs))),
    ]);
    clearTimeout(waiting);
    return finished;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), delayMs);
    // Never what keeps a process alive; stop() clears it anyway.
    this.timer.unref();
  }

  private run(): void {
    this.timer = undefined;
    if (this.stopped || this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (!this.stopped) this.schedule(this.kicked ? KICK_SETTLE_MS : this.intervalMs);
    });
  }

  private async drain(): Promise<void> {
    this.kicked = false;
    let more = true;
    while (more && !this.stopped) {
      more = await this.round();
      // A round on SQLite can end without waiting on any I/O: requests and timers run between rounds.
      if (more) await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
