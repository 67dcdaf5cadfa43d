import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../common/api-error';
import { UNAUTHORIZED } from '../common/messages';
import { AppConfig } from '../config/app-config';

export const TEST_MODE_KEY_HEADER = 'X-Test-Mode-Key';

/** Hashed first, so that timingSafeEqual compares two buffers of one length whatever the header's length. */
const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Every test-mode route needs X-Test-Mode-Key equal to TEST_MODE_KEY, compared in constant time; 401 otherwise. */
@Injectable()
export class TestModeKeyGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(config: AppConfig) {
    this.expected = digest(config.testMode.key ?? '');
  }

  canActivate(context: ExecutionContext): boolean {
    const given = context.switchToHttp().getRequest<Request>().headers[TEST_MODE_KEY_HEADER.toLowerCase()];
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), this.expected)) {
      throw new ApiError(HttpStatus.UNAUTHORIZED, UNAUTHORIZED);
    }
    return true;
  }
}
