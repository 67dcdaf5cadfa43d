import { Clock } from '../../src/common/clock';

/** A clock for unit tests: fixed at `at` until a test moves it forward. */
export class TestClock extends Clock {
  constructor(private at: Date) {
    super();
  }

  override now(): Date {
    return new Date(this.at);
  }

  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}
