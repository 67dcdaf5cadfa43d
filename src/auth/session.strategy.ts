import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-jwt';
import { AppConfig } from '../config/app-config';
import { Caller, callerFromClaims, SessionClaims } from './caller';
import { SESSION_ALGORITHM, sessionTokenFromRequest } from './session-token';

export const SESSION_STRATEGY = 'session';

/**
 * Verifies the id token from the session cookie: signature (algorithm pinned), `exp`,
 * and `token_use` = `id`. A token that fails any check is "no session".
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(config: AppConfig) {
    super({
      jwtFromRequest: (request: Request) => sessionTokenFromRequest(config, request),
      secretOrKey: config.authJwtSecret,
      algorithms: [SESSION_ALGORITHM],
      ignoreExpiration: false,
    });
  }

  validate(claims: SessionClaims): Caller | false {
    if (claims.token_use !== 'id') return false;
    return callerFromClaims(claims) ?? false;
  }
}
