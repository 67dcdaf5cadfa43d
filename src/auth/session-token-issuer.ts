import { Injectable } from '@nestjs/common';
import { sign } from 'jsonwebtoken';
import { randomBytes } from 'node:crypto';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { SessionKind } from '../database/entities/session.entity';
import { IdentityUser } from '../identity/identity-store';
import { SESSION_ALGORITHM, ssoSessionIssuer } from './session-token';
import { SessionsStore } from './sessions.store';

/** How a new session was made, and what of its request it keeps (docs/sessions.md). */
export interface NewSession {
  kind: SessionKind;
  /** The connection whose single sign-on made it (kind `sso`). */
  connectionId?: string;
  /** Its absolute lifetime; SESSION_TTL_SECONDS when absent. */
  ttlSeconds?: number;
  /** The token carries `email_verified: true` (the operator or the provider vouches for the address). */
  emailVerified?: boolean;
  userAgent?: string | null;
  ip?: string | null;
}

export interface IssuedSession {
  token: string;
  sessionId: string;
  ttlSeconds: number;
}

/** A session's id, the token's `sid`: 144 random bits. */
const newSessionId = (): string => randomBytes(18).toString('base64url');

/**
 * Makes the sessions this service issues: a row in `sessions` first, then a local-mode id token
 * (HS256 with AUTH_JWT_SECRET) whose `sid` names it and whose other claims come from the user record.
 */
@Injectable()
export class SessionTokenIssuer {
  constructor(
    private readonly config: AppConfig,
    private readonly sessions: SessionsStore,
    private readonly clock: Clock,
  ) {}

  async issue(user: IdentityUser, session: NewSession): Promise<IssuedSession> {
    const ttlSeconds = session.ttlSeconds ?? this.config.sessions.ttlSeconds;
    const sessionId = newSessionId();
    const now = this.clock.now();
    await this.sessions.insert({
      id: sessionId,
      userId: user.id,
      tenantId: user.tenantId,
      kind: session.kind,
      connectionId: session.connectionId ?? null,
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      idleSeconds: this.config.sessions.idleSeconds,
      userAgent: session.userAgent?.slice(0, 512) ?? null,
      ip: session.ip?.slice(0, 64) ?? null,
      revokedAt: null,
      revokedReason: null,
    });
    const sso = session.connectionId !== undefined;
    const claims = {
      token_use: 'id',
      sid: sessionId,
      email: user.email,
      ...(session.emailVerified && { email_verified: true }),
      ...(sso && { amr: ['sso'], sso_connection: session.connectionId }),
      ...(user.userType && { 'custom:user_type': user.userType }),
      ...(user.tenantId && { 'custom:tenant_id': user.tenantId }),
      ...(user.role && { 'custom:role': user.role }),
    };
    // In cognito mode a single sign-on's session names this service as its issuer, for the pool's app client.
    const issuer = sso ? ssoSessionIssuer(this.config) : undefined;
    const token = sign(claims, this.config.authJwtSecret, {
      algorithm: SESSION_ALGORITHM,
      subject: user.id,
      expiresIn: ttlSeconds,
      ...(issuer !== undefined && { issuer, audience: this.config.cognito.clientId }),
    });
    return { token, sessionId, ttlSeconds };
  }
}
