/**
 * Runs `round` in the background: every `intervalMs`, at once after a round that says more work
 * may be waiting (it returns true), and at once on `kick`. Never two rounds at a time. What the
 * outbox workers (invitation e-mails, webhooks) share.
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
      if (!this.stopped) this.schedule(this.kicked ? 0 : this.intervalMs);
    });
  }

  private async drain(): Promise<void> {
    let more = true;
    while (more && !this.stopped) {
      this.kicked = false;
      more = (await this.round()) || this.kicked;
    }
  }
}
