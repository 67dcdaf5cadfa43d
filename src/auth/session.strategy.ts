import { Injectable, Logger } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import type * as JwksRsa from 'jwks-rsa';
import { createSecretKey } from 'node:crypto';
import { Strategy, StrategyOptionsWithoutRequest } from 'passport-jwt';
import { AppConfig } from '../config/app-config';
import { userPoolOf } from '../config/identity-config';
import { cognitoIssuer, cognitoJwksUri } from '../identity/cognito/cognito-endpoints';
import { Caller, callerFromClaims, SessionClaims } from './caller';
import {
  COGNITO_SESSION_ALGORITHM,
  SESSION_ALGORITHM,
  sessionTokenFromRequest,
  ssoSessionIssuer,
} from './session-token';

export const SESSION_STRATEGY = 'session';

const logger = new Logger('SessionStrategy');

/** How far ahead of this server's clock a token's `iat` may be: the issuer's clock may run a little fast. */
export const CLOCK_SKEW_SECONDS = 60;

/** Why a request found no token to verify, for SessionGuard's debug line. */
const refusals = new WeakMap<Request, string>();
export const sessionRefusalOf = (request: Request): string | undefined => refusals.get(request);

/** True when the JWT's payload segment is a JSON object; jsonwebtoken fails on other payloads with a TypeError. */
function hasObjectPayload(token: string): boolean {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload);
  } catch {
    return true; // not JSON at all: jsonwebtoken refuses it as malformed
  }
}

/** The cookie's token, or null with the reason recorded. */
function tokenFromRequest(config: AppConfig, request: Request): string | null {
  const found = sessionTokenFromRequest(config, request);
  if ('token' in found && hasObjectPayload(found.token)) return found.token;
  refusals.set(request, 'refused' in found ? found.refused : 'the token payload is not a JSON object');
  return null;
}

/**
 * How id tokens are verified in each mode (docs/api.md, "Sessions"). `local`: HS256 with
 * AUTH_JWT_SECRET. `cognito`: RS256 against the pool's JWKS, with issuer and audience
 * (the app client) checked. Keys are cached and fetched again for an unknown `kid`, at most
 * ten fetches a minute, so that forged `kid`s cannot turn every request into a JWKS download.
 */
export function sessionStrategyOptions(config: AppConfig): StrategyOptionsWithoutRequest {
  const jwtFromRequest = (request: Request) => tokenFromRequest(config, request);
  const pool = userPoolOf(config);
  if (pool) {
    // Loaded in Cognito mode only: local mode never fetches a key.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, by design
    const { passportJwtSecret } = require('jwks-rsa') as typeof JwksRsa;
    const jwksUri = cognitoJwksUri(pool);
    const poolKeys = passportJwtSecret({
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
    });
    // Single sign-on's sessions (docs/sso.md) are the service's own tokens, HS256 with AUTH_JWT_SECRET and
    // PUBLIC_BASE_URL as `iss`: the key, and so the one algorithm it verifies, is chosen by `iss`, so that a
    // token naming the pool is never checked with the HS256 key, nor the service's with the pool's keys.
    const ownIssuer = ssoSessionIssuer(config);
    if (ownIssuer === undefined)
      return {
        jwtFromRequest,
        secretOrKeyProvider: poolKeys,
        issuer: cognitoIssuer(pool),
        audience: pool.clientId,
        algorithms: [COGNITO_SESSION_ALGORITHM],
        ignoreExpiration: false,
      };
    const ownKey = createSecretKey(Buffer.from(config.authJwtSecret, 'utf8'));
    return {
      jwtFromRequest,
      secretOrKeyProvider: (request, rawJwtToken: string, done) =>
        issuerOf(rawJwtToken) === ownIssuer ? done(null, ownKey as never) : poolKeys(request, rawJwtToken, done),
      issuer: [cognitoIssuer(pool), ownIssuer],
      audience: pool.clientId,
      algorithms: [COGNITO_SESSION_ALGORITHM, SESSION_ALGORITHM],
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

/** The token's `iss`, read before verifying it, only to choose the key; undefined when unreadable. */
function issuerOf(token: string): unknown {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).iss;
  } catch {
    return undefined;
  }
}

type Refusal = [false, { message: string }];
const refuse = (message: string): Refusal => [false, { message }];

/**
 * Verifies the id token from the session cookie: signature (algorithm pinned), `exp`
 * (required: jsonwebtoken checks it only when present), `iat` not in the future, and
 * `token_use` = `id`; in cognito mode issuer and audience too. A token that fails any
 * check is "no session"; the reason goes to SessionGuard's debug line.
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(config: AppConfig) {
    super(sessionStrategyOptions(config));
  }

  validate(claims: SessionClaims): Caller | Refusal {
    if (typeof claims.exp !== 'number') return refuse('the token has no exp claim');
    if (typeof claims.iat === 'number' && claims.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) {
      return refuse('the token was issued in the future (iat)');
    }
    if (claims.token_use !== 'id') return refuse('token_use is not "id"');
    return callerFromClaims(claims) ?? refuse('the token names no user (sub)');
  }
}
