import { Injectable } from '@nestjs/common';

/**
 * The current time, behind an injectable so that unit tests can fix it. Test mode moves it forward
 * by an offset (docs/test-mode.md); otherwise the offset stays 0.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** How far now() is ahead of the real time, in milliseconds. */
  get offset(): number {
    return this.offsetMs;
  }

  setOffset(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }
}
