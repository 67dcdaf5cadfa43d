import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The signed-in caller, from the verified id token's claims (spec section 2, "Session claims"). */
export interface Caller {
  id: string;
  email: string | null;
  userType: string | null;
  tenantId: string | null;
  role: string | null;
  /** Absent when the token has no `email_verified` claim; otherwise whether the claim is `true`. */
  emailVerified?: boolean;
  /** The token's `sid`: a session this service issued (docs/sessions.md). */
  sessionId?: string;
  /** The token's `iat`, epoch seconds. */
  issuedAt?: number;
  /**
   * The single sign-on connection that made the caller's live session, as it is now (docs/sso.md):
   * set by SessionCheck, never from claims alone.
   */
  sso?: { connectionId: string; tenantId: string; active: boolean };
  /** The setup link whose session acts (docs/setup-links.md): set by the setup session's guard, never from claims. */
  setupLink?: string;
}

/** A caller that OrgAdminGuard let through: a user of the organisation `tenantId`, with its stored role. */
export interface OrgCaller extends Caller {
  tenantId: string;
}

/** The id token's claims that the service reads. */
export interface SessionClaims {
  sub?: string;
  'cognito:username'?: string;
  email?: string;
  email_verified?: unknown;
  token_use?: string;
  exp?: number;
  iat?: number;
  'custom:user_type'?: string;
  'custom:tenant_id'?: string;
  'custom:role'?: string;
  sid?: unknown;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Claims to caller; null when the token names no user. `cognito:username` wins over `sub`. */
export function callerFromClaims(claims: SessionClaims): Caller | null {
  const id = text(claims['cognito:username']) ?? text(claims.sub);
  if (!id) return null;
  return {
    id,
    email: text(claims.email),
    userType: text(claims['custom:user_type']),
    tenantId: text(claims['custom:tenant_id']),
    role: text(claims['custom:role']),
    ...(claims.email_verified !== undefined && { emailVerified: claims.email_verified === true }),
    ...(text(claims.sid) && { sessionId: text(claims.sid)! }),
    ...(typeof claims.iat === 'number' && { issuedAt: claims.iat }),
  };
}

/** The caller that SessionGuard put on the request, or undefined when there is no session. */
export const CurrentCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): Caller | undefined => context.switchToHttp().getRequest().user,
);

/** The caller that OrgAdminGuard confirmed, on the routes behind it. */
export const CurrentOrgCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): OrgCaller => context.switchToHttp().getRequest().user,
);
