import { Writable } from 'node:stream';
import { BoundedStdout, FINAL_FLUSH_MS, LOG_BUFFER_BYTES } from './bounded-stdout';

/** A pipe whose reader can stall: while it does, nothing written completes. */
class StallingReader extends Writable {
  written = '';
  private stalled = true;
  private waiting?: () => void;

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.written += chunk.toString();
    if (this.stalled) this.waiting = done;
    else done();
  }

  resume(): void {
    this.stalled = false;
    this.waiting?.();
  }
}

/** Lines are written at the end of the event loop's turn. */
const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

describe(BoundedStdout.name, () => {
  const line = `${JSON.stringify({ msg: 'x'.repeat(1_000) })}\n`;
  let reader: StallingReader;
  let drops: { dropped: jest.Mock; readerBack: jest.Mock };
  let output: BoundedStdout;

  beforeEach(() => {
    reader = new StallingReader();
    drops = { dropped: jest.fn(), readerBack: jest.fn() };
    output = new BoundedStdout(drops, reader);
  });

  it('holds at most LOG_BUFFER_BYTES for a stalled reader, drops whole lines beyond, and reports their number once back', async () => {
    const accepted = Math.ceil(LOG_BUFFER_BYTES / line.length);
    for (let i = 0; i < accepted + 50; i++) output.write(line);
    await endOfTurn();
    expect(reader.writableLength).toBeLessThan(LOG_BUFFER_BYTES + line.length);
    expect(drops.dropped).toHaveBeenCalledTimes(50);
    expect(drops.readerBack).not.toHaveBeenCalled();

    const drained = new Promise((resolve) => reader.once('drain', resolve));
    reader.resume();
    await drained;
    expect(drops.readerBack.mock.calls).toEqual([[50]]);
    expect(reader.written).toBe(line.repeat(accepted));
  });

  it('writes the lines of one turn of the event loop together, in order, at its end', async () => {
    reader.resume();
    const writes = jest.spyOn(reader, 'write');
    output.write('one\n');
    output.write('two\n');
    expect(writes).not.toHaveBeenCalled();
    await endOfTurn();
    expect(writes.mock.calls.map(([chunk]) => chunk)).toEqual(['one\ntwo\n']);
    output.write('three\n');
    await endOfTurn();
    expect(reader.written).toBe('one\ntwo\nthree\n');
  });

  it('lines that fill the buffer in one turn: those beyond are dropped, and reported once the reader has taken the rest', async () => {
    reader.resume();
    const accepted = Math.ceil(LOG_BUFFER_BYTES / line.length);
    for (let i = 0; i < accepted + 3; i++) output.write(line);
    expect(drops.dropped).toHaveBeenCalledTimes(3);
    await endOfTurn();
    expect(drops.readerBack.mock.calls).toEqual([[3]]);
    expect(reader.written).toBe(line.repeat(accepted));
  });

  it('flush waits for a stalled reader FINAL_FLUSH_MS at most, and never past the deadline', async () => {
    output.write(line);
    let started = Date.now();
    await output.flush(Date.now() + 60_000);
    // Bounds that a loaded machine keeps: FINAL_FLUSH_MS, not the 60 s deadline; the 100 ms deadline, not FINAL_FLUSH_MS.
    expect(Date.now() - started).toBeGreaterThanOrEqual(FINAL_FLUSH_MS - 10);
    expect(Date.now() - started).toBeLessThan(FINAL_FLUSH_MS + 2_000);

    started = Date.now();
    await output.flush(Date.now() + 100);
    expect(Date.now() - started).toBeLessThan(FINAL_FLUSH_MS - 100);
  });

  it('flush returns as soon as the reader has taken every line', async () => {
    reader.resume();
    output.write(line);
    const started = Date.now();
    await output.flush(Date.now() + 60_000);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('a reader that closed the pipe (EPIPE): lines are dropped, and nothing is thrown', () => {
    reader.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(() => output.write(line)).not.toThrow();
        expect(drops.dropped).toHaveBeenCalledTimes(1);
        resolve();
      }),
    );
  });
});
