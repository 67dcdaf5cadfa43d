import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { DestinationStream } from 'pino';

/** The most bytes of log lines that wait for a slow reader; lines beyond are dropped, and counted. */
export const LOG_BUFFER_BYTES = 1024 * 1024;
/** How long the last flush, at shutdown, waits for a slow reader to take what still waits. */
export const FINAL_FLUSH_MS = 1_000;

/** What a stalled reader leads to: each line dropped, then, once the reader is back, how many were. */
export interface DroppedLines {
  dropped(): void;
  readerBack(count: number): void;
}

/**
 * Stdout for JSON log lines, written so that a reader that stalls (a stuck log shipper leaves the
 * pipe full) never blocks the event loop, nor the process's exit:
 * - Node writes a pipe without blocking: what the pipe cannot take yet waits in the stream, and
 *   is written as soon as the reader makes room (libuv is told when it does);
 * - at most LOG_BUFFER_BYTES wait; lines beyond are dropped whole, each one reported to `drops`,
 *   and their number once everything waiting has been written;
 * - the lines of one turn of the event loop are written together, at its end: one write(2) for
 *   the request lines of every response sent in that turn, not one each (under load, a tenth of
 *   an invite's CPU time went to its line);
 * - at exit nothing is flushed synchronously: what still waits is lost, so shutdown waits for it
 *   a short while first (flush).
 * pino's sonic-boom is not used for this: on a pipe that it finds full it polls every 100 ms,
 * which caps what it writes at a pipe's size (64 kB) per 100 ms once it is behind, and its exit
 * flush retries a full or broken pipe without end.
 */
export class BoundedStdout implements DestinationStream {
  private droppedSinceReport = 0;
  private readerGone = false;
  private awaitingDrain = false;
  /** Lines of this turn of the event loop, not yet written. */
  private pending = '';

  constructor(
    private readonly drops: DroppedLines,
    private readonly out: Writable = process.stdout,
  ) {
    // EPIPE: the reader closed the pipe. Logging stops there rather than the process.
    out.on('error', () => (this.readerGone = true));
  }

  write(line: string): void {
    if (this.readerGone || this.out.writableLength + this.pending.length >= LOG_BUFFER_BYTES) return this.drop();
    if (this.pending === '') setImmediate(this.writePending);
    this.pending += line;
  }

  /** Resolves once no line waits, or after FINAL_FLUSH_MS, or at `deadline` (epoch milliseconds), whichever is first. */
  async flush(deadline: number): Promise<void> {
    this.writePending();
    if (this.readerGone || this.out.writableLength === 0) return;
    const waitMs = Math.min(FINAL_FLUSH_MS, deadline - Date.now());
    const settled = new AbortController();
    const { signal } = settled;
    await Promise.race([once(this.out, 'drain', { signal }), delay(waitMs, undefined, { signal })]).catch(
      () => undefined,
    );
    settled.abort();
  }

  private readonly writePending = (): void => {
    if (this.pending === '' || this.readerGone) return;
    const lines = this.pending;
    this.pending = '';
    const taken = this.out.write(lines);
    if (this.droppedSinceReport === 0) return;
    if (taken && !this.awaitingDrain) this.reportDrops();
    else this.reportOnDrain();
  };

  private drop(): void {
    this.droppedSinceReport++;
    this.drops.dropped();
    // Lines wait in the stream: it emits 'drain' once it has written them. Otherwise the lines of
    // this turn filled the buffer, and writePending reports once they are taken.
    if (this.out.writableLength > 0) this.reportOnDrain();
  }

  private reportOnDrain(): void {
    if (this.awaitingDrain || this.readerGone) return;
    this.awaitingDrain = true;
    this.out.once('drain', () => {
      this.awaitingDrain = false;
      this.reportDrops();
    });
  }

  private reportDrops(): void {
    const count = this.droppedSinceReport;
    this.droppedSinceReport = 0;
    if (count > 0) this.drops.readerBack(count);
  }
}
