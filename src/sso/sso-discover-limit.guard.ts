import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { SSO_ERRORS, ssoRefusal } from './sso.messages';

const WINDOW_MS = 60_000;
const THROTTLER = 'sso-discover';
export const discoverRateKey = (address: string) =>
  createHash('sha256').update(`sso-discover-${address}`).digest('hex');

/**
 * POST /api/sso/discover: SSO_DISCOVER_RATE_LIMIT calls per client address (TRUST_PROXY decides which)
 * a minute, counted where the invitation limit counts (Redis when set, shared by the fleet); 429 with
 * Retry-After beyond, so that nobody can list which domains sign in by SSO.
 */
@Injectable()
export class SsoDiscoverLimitGuard implements CanActivate {
  constructor(
    private readonly config: AppConfig,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    // The window's count alone decides, compared here, as SCIM's limit does.
    const counted = await this.storage.increment(
      discoverRateKey(request.ip ?? ''),
      WINDOW_MS,
      Number.MAX_SAFE_INTEGER,
      1,
      THROTTLER,
    );
    if (counted.totalHits > this.config.sso.discoverRateLimit) {
      const retryAfter = Math.max(1, counted.timeToExpire);
      context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(retryAfter));
      throw ssoRefusal(
        HttpStatus.TOO_MANY_REQUESTS,
        SSO_ERRORS.rateLimited,
        `more than ${this.config.sso.discoverRateLimit} discoveries a minute from this address (SSO_DISCOVER_RATE_LIMIT)`,
      );
    }
    return true;
  }
}
