import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

/** New random ids (UUID v4), behind an injectable so that unit tests can fix them. */
@Injectable()
export class IdGenerator {
  uuid(): string {
    return randomUUID();
  }
}
