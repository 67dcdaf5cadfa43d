/**
 * The setup session's guard (docs/setup-links.md): every /api/setup route is opened by the setup
 * session alone, never by an org session (401 without one), and a route of an intent the link does
 * not grant is 403 SETUP_INTENT_NOT_GRANTED.
 */
import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  HttpStatus,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { parseCookieHeader } from '../auth/session-token';
import { ApiError } from '../common/api-error';
import { UNAUTHORIZED } from '../common/messages';
import { SETUP_SESSION_COOKIE } from '../common/openapi';
import { SetupIntent } from '../database/entities/setup-link.entity';
import { SETUP_ERRORS, SETUP_REASONS, setupRefusal } from './setup-links.messages';
import { SetupSession, SetupSessionsService } from './setup-sessions.service';

const SETUP_INTENT = 'setup:intent';

/** The intent a route belongs to. */
export const SetupIntentOf = (intent: SetupIntent) => SetMetadata(SETUP_INTENT, intent);

type SetupRequest = Request & { setupSession?: SetupSession; user?: unknown };

@Injectable()
export class SetupSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: SetupSessionsService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SetupRequest>();
    const values = parseCookieHeader(request.headers.cookie ?? '').get(SETUP_SESSION_COOKIE) ?? [];
    const session = values.length === 1 ? await this.sessions.sessionOf(values[0]) : null;
    if (!session) throw new ApiError(HttpStatus.UNAUTHORIZED, UNAUTHORIZED);
    const intent = this.reflector.getAllAndOverride<SetupIntent | undefined>(SETUP_INTENT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (intent && !session.intents.includes(intent))
      throw setupRefusal(HttpStatus.FORBIDDEN, SETUP_ERRORS.intentNotGranted, SETUP_REASONS.intent(intent));
    request.setupSession = session;
    // What the org routes' services read as their caller.
    request.user = session.caller;
    return true;
  }
}

/** The session that SetupSessionGuard confirmed. */
export const CurrentSetup = createParamDecorator(
  (_: unknown, context: ExecutionContext): SetupSession =>
    context.switchToHttp().getRequest<SetupRequest>().setupSession!,
);
