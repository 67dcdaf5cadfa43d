import { CanActivate, createParamDecorator, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { requestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { SCIM_CONTENT_TYPE, SCIM_MESSAGES, ScimError } from './scim-errors';
import { ScimTokensStore } from './scim-tokens.store';

/** What a SCIM request acts as: the token, and the one organisation it names. */
export interface ScimContext {
  tokenId: string;
  tenantId: string;
}

type ScimRequest = Request & { scim?: ScimContext; scimBaseUrl?: string };

const RATE_WINDOW_MS = 60_000;
const SCIM_THROTTLER = 'scim';
export const scimRateKey = (tokenId: string) => createHash('sha256').update(`scim-${tokenId}`).digest('hex');

const BEARER = /^Bearer\s+(\S{1,512})\s*$/i;

/**
 * Every /scim/v2 route: `Authorization: Bearer <secret>` names the organisation (401 otherwise),
 * whose tenant must be neither suspended nor deleted (403); then SCIM_RATE_LIMIT requests per token
 * per minute, counted where the invitation limit counts (Redis when set, shared by every
 * instance), 429 with Retry-After beyond. Answers are `application/scim+json`.
 */
@Injectable()
export class ScimTokenGuard implements CanActivate {
  constructor(
    private readonly tokens: ScimTokensStore,
    private readonly config: AppConfig,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScimRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    response.type(SCIM_CONTENT_TYPE);
    const secret = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const token = secret ? await this.tokens.authenticate(secret) : null;
    if (!token) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="SCIM"');
      throw new ScimError(HttpStatus.UNAUTHORIZED, SCIM_MESSAGES.unauthorized);
    }
    if (token.tenantStatus === 'suspended') throw new ScimError(HttpStatus.FORBIDDEN, SCIM_MESSAGES.suspended);
    if (token.tenantStatus === 'deleted' || token.tenantStatus === null)
      throw new ScimError(HttpStatus.FORBIDDEN, SCIM_MESSAGES.deleted);
    const limit = this.config.scimRateLimit;
    // The window's count alone decides, compared here: a storage given the limit would block the key
    // past it, and the library's Redis script restarts the count when that block ends.
    const counted = await this.storage.increment(
      scimRateKey(token.id),
      RATE_WINDOW_MS,
      Number.MAX_SAFE_INTEGER,
      1,
      SCIM_THROTTLER,
    );
    if (counted.totalHits > limit) {
      response.setHeader('Retry-After', String(Math.max(1, counted.timeToExpire)));
      throw new ScimError(HttpStatus.TOO_MANY_REQUESTS, SCIM_MESSAGES.rateLimited);
    }
    request.scim = { tokenId: token.id, tenantId: token.tenantId };
    request.scimBaseUrl = this.config.publicBaseUrl ?? requestOrigin(request.headers);
    return true;
  }
}

/** The SCIM context that ScimTokenGuard put on the request. */
export const CurrentScim = createParamDecorator(
  (_: unknown, context: ExecutionContext): ScimContext => context.switchToHttp().getRequest<ScimRequest>().scim!,
);

/**
 * Where the resources' `meta.location` and the discovery documents point: PUBLIC_BASE_URL, else the
 * request's origin (requestOrigin). ScimTokenGuard puts it on the request.
 */
export const ScimBaseUrl = createParamDecorator(
  (_: unknown, context: ExecutionContext): string => context.switchToHttp().getRequest<ScimRequest>().scimBaseUrl!,
);
