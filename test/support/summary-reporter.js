/** A file that runs this long is named on stderr, once a minute, until it ends (no test file takes a minute). */
const LONG_RUNNING_MS = 5 * 60_000;

/** How many of the slowest test files the closing lines name. */
const SLOWEST = 10;

/**
 * Prints the slowest test files and one plain closing line that any CI can read: "jest: N passed,
 * N failed, N skipped"; and, while the run goes on, the test files that have run past LONG_RUNNING_MS. A file whose process
 * is stuck (a loop that never waits) outlives every test timeout, and Jest names no file until it
 * ends: without this a hung run shows only the files that finished.
 */
class SummaryReporter {
  running = new Map();
  durations = [];
  watch = setInterval(() => this.nameLongRunning(), 60_000).unref();

  onTestFileStart(test) {
    this.running.set(test, Date.now());
  }

  onTestFileResult(test, result) {
    this.running.delete(test);
    this.durations.push([fileName(test), result.perfStats.end - result.perfStats.start]);
  }

  onRunComplete(_contexts, results) {
    clearInterval(this.watch);
    const slowest = this.durations.sort((a, b) => b[1] - a[1]).slice(0, SLOWEST);
    if (slowest.length > 1) {
      process.stdout.write(`\nslowest test files:\n`);
      for (const [file, ms] of slowest) process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(
      `\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`,
    );
  }

  nameLongRunning() {
    const now = Date.now();
    for (const [test, startedAt] of this.running) {
      if (now - startedAt < LONG_RUNNING_MS) continue;
      const file = fileName(test);
      const minutes = Math.floor((now - startedAt) / 60_000);
      process.stderr.write(`jest: ${file} still running after ${minutes} min\n`);
    }
  }
}

/** A test file as "project path", e.g. "e2e:sqlite test/invitations.e2e-spec.ts". */
function fileName(test) {
  const { displayName, rootDir } = test.context.config;
  return [displayName?.name, test.path.slice(rootDir.length + 1)].filter(Boolean).join(' ');
}

module.exports = SummaryReporter;
