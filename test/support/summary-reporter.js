/** A file that runs this long is named on stderr, once a minute, until it ends (no test file takes a minute). */
const LONG_RUNNING_MS = 5 * 60_000;

/**
 * Prints one plain closing line that any CI can read: "jest: N passed, N failed, N skipped"; and,
 * while the run goes on, the test files that have run past LONG_RUNNING_MS. A file whose process
 * is stuck (a loop that never waits) outlives every test timeout, and Jest names no file until it
 * ends: without this a hung run shows only the files that finished.
 */
class SummaryReporter {
  running = new Map();
  watch = setInterval(() => this.nameLongRunning(), 60_000).unref();

  onTestFileStart(test) {
    this.running.set(test, Date.now());
  }

  onTestFileResult(test) {
    this.running.delete(test);
  }

  onRunComplete(_contexts, results) {
    clearInterval(this.watch);
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(
      `\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`,
    );
  }

  nameLongRunning() {
    const now = Date.now();
    for (const [test, startedAt] of this.running) {
      if (now - startedAt < LONG_RUNNING_MS) continue;
      const { displayName, rootDir } = test.context.config;
      const file = [displayName?.name, test.path.slice(rootDir.length + 1)].filter(Boolean).join(' ');
      const minutes = Math.floor((now - startedAt) / 60_000);
      process.stderr.write(`jest: ${file} still running after ${minutes} min\n`);
    }
  }
}
module.exports = SummaryReporter;
