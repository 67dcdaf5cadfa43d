import { Injectable } from '@nestjs/common';

/** The current time, behind an injectable so that unit tests can fix it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
