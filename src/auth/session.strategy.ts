import { Injectable, Logger } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { passportJwtSecret } from 'jwks-rsa';
import { createSecretKey } from 'node:crypto';
import { Strategy, StrategyOptionsWithoutRequest } from 'passport-jwt';
import { AppConfig } from '../config/app-config';
import { cognitoIssuer, cognitoJwksUri } from '../identity/cognito/cognito-endpoints';
import { Caller, callerFromClaims, SessionClaims } from './caller';
import { COGNITO_SESSION_ALGORITHM, SESSION_ALGORITHM, sessionTokenFromRequest } from './session-token';

export const SESSION_STRATEGY = 'session';

const logger = new Logger('SessionStrategy');

/**
 * How id tokens are verified in each mode (CONTRACT: Sessions). `local`: HS256 with
 * AUTH_JWT_SECRET. `cognito`: RS256 against the pool's JWKS, with issuer and audience
 * (the app client) checked. Keys are cached and fetched again for an unknown `kid`, at most
 * ten fetches a minute, so that forged `kid`s cannot turn every request into a JWKS download.
 */
export function sessionStrategyOptions(config: AppConfig): StrategyOptionsWithoutRequest {
  const jwtFromRequest = (request: Request) => sessionTokenFromRequest(config, request);
  if (config.identityStore === 'cognito') {
    const jwksUri = cognitoJwksUri(config.cognito);
    return {
      jwtFromRequest,
      secretOrKeyProvider: passportJwtSecret({
        jwksUri,
        cache: true,
        rateLimit: true,
        jwksRequestsPerMinute: 10,
        timeout: 5_000,
        handleSigningKeyError: (error, done) => {
          // An unknown kid is a bad token; anything else (JWKS unreachable, rate limit) is worth a log line.
          if (error && error.name !== 'SigningKeyNotFoundError') {
            logger.warn(`Cannot get the signing key from ${jwksUri}: ${error.message}`);
          }
          done(error && error.name !== 'SigningKeyNotFoundError' ? error : null);
        },
      }),
      issuer: cognitoIssuer(config.cognito),
      audience: config.cognito.clientId,
      algorithms: [COGNITO_SESSION_ALGORITHM],
      ignoreExpiration: false,
    };
  }
  return {
    jwtFromRequest,
    // A KeyObject made once: given a string, jsonwebtoken first tries (and fails) to parse it as
    // a public key on every request, which was a fifth of the CPU time of an admin request.
    secretOrKey: createSecretKey(Buffer.from(config.authJwtSecret, 'utf8')) as unknown as string,
    algorithms: [SESSION_ALGORITHM],
    ignoreExpiration: false,
  };
}

/**
 * Verifies the id token from the session cookie: signature (algorithm pinned), `exp`,
 * and `token_use` = `id`; in cognito mode issuer and audience too. A token that fails any
 * check is "no session".
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(config: AppConfig) {
    super(sessionStrategyOptions(config));
  }

  validate(claims: SessionClaims): Caller | false {
    if (claims.token_use !== 'id') return false;
    return callerFromClaims(claims) ?? false;
  }
}
