import { SsoAttemptEntity } from '../database/entities';
import { ConnectionView } from './sso-connections.store';

/** A connection as the API answers it (docs/sso.md): never its client secret. */
export interface ConnectionAnswer {
  id: string;
  type: 'oidc';
  name: string;
  status: string;
  jit: boolean;
  defaultRole: string;
  allowIdpInitiated: boolean;
  primary: boolean;
  createdAt: string;
  oidc: { issuer: string; clientId: string; scopes: string[] };
  sp: { redirectUri: string };
  lastLogin: { at: string; result: string } | null;
}

/** The redirect URI that an owner registers at the provider: one per connection. */
export const redirectUriOf = (base: string, connectionId: string) =>
  `${base}/sso/oidc/${encodeURIComponent(connectionId)}/callback`;

export function connectionAnswer({ connection, lastLogin, primary }: ConnectionView, base: string): ConnectionAnswer {
  return {
    id: connection.id,
    type: connection.type,
    name: connection.name,
    status: connection.status,
    jit: connection.jit === 1,
    defaultRole: connection.defaultRole,
    allowIdpInitiated: connection.allowIdpInitiated === 1,
    primary,
    createdAt: connection.createdAt.toISOString(),
    oidc: { issuer: connection.issuer, clientId: connection.clientId, scopes: connection.scopes.split(' ') },
    sp: { redirectUri: redirectUriOf(base, connection.id) },
    lastLogin: lastLogin && { at: lastLogin.at.toISOString(), result: lastLogin.result },
  };
}

export interface AttemptAnswer {
  at: string;
  result: string;
  email?: string;
  subject?: string;
  detail: string;
}

export const attemptAnswer = (attempt: SsoAttemptEntity): AttemptAnswer => ({
  at: attempt.at.toISOString(),
  result: attempt.result,
  ...(attempt.email !== null && { email: attempt.email }),
  ...(attempt.subject !== null && { subject: attempt.subject }),
  detail: attempt.detail,
});

/** GET /api/org/sso's answer (docs/sso.md, "Enforcement"). */
export interface SsoEnforcementAnswer {
  enforced: boolean;
  connections: number;
  activeConnections: number;
  breakGlass: string[];
}
