import { SsoAttemptEntity } from '../database/entities';
import { SsoConnectionType, TokenEndpointAuthMethod } from '../database/entities/sso.entity';
import { IdpMetadata } from './saml/saml-metadata';
import { ConnectionView } from './sso-connections.store';

/** A connection as the API answers it (docs/sso.md): never its client secret. */
export interface ConnectionAnswer {
  id: string;
  type: SsoConnectionType;
  name: string;
  status: string;
  jit: boolean;
  defaultRole: string;
  allowIdpInitiated: boolean;
  primary: boolean;
  createdAt: string;
  oidc?: { issuer: string; clientId: string; scopes: string[]; tokenEndpointAuthMethod: TokenEndpointAuthMethod };
  saml?: {
    idpEntityId: string;
    idpSsoUrl: string;
    metadataUrl: string | null;
    wantAssertionsSigned: boolean;
    certificates: { fingerprint: string; notAfter: string }[];
  };
  /** What an owner enters at the provider: OIDC's redirect URI; SAML's entity ID, ACS and metadata address. */
  sp: { redirectUri: string } | { entityId: string; acsUrl: string; metadataUrl: string };
  lastLogin: { at: string; result: string } | null;
}

/** The redirect URI that an owner registers at the provider: one per connection. */
export const redirectUriOf = (base: string, connectionId: string) =>
  `${base}/sso/oidc/${encodeURIComponent(connectionId)}/callback`;

/** A SAML connection's own entity ID (its SP metadata's address) and ACS: one per connection. */
export const samlEndpointsOf = (base: string, connectionId: string) => {
  const path = `${base}/sso/saml/${encodeURIComponent(connectionId)}`;
  return { entityId: `${path}/metadata`, acsUrl: `${path}/acs`, metadataUrl: `${path}/metadata` };
};

/** The page that posts a pending sign-in's AuthnRequest to a provider that takes HTTP-POST only. */
export const samlPostPageOf = (base: string, connectionId: string, requestId: string) =>
  `${base}/sso/saml/${encodeURIComponent(connectionId)}/requests/${encodeURIComponent(requestId)}`;

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
    ...protocolAnswer(connection, base),
    lastLogin: lastLogin && { at: lastLogin.at.toISOString(), result: lastLogin.result },
  };
}

function protocolAnswer(
  connection: ConnectionView['connection'],
  base: string,
): Pick<ConnectionAnswer, 'oidc' | 'saml' | 'sp'> {
  if (connection.type === 'oidc')
    return {
      oidc: {
        issuer: connection.issuer,
        clientId: connection.clientId,
        scopes: connection.scopes.split(' '),
        tokenEndpointAuthMethod: connection.tokenEndpointAuthMethod,
      },
      sp: { redirectUri: redirectUriOf(base, connection.id) },
    };
  const idp = JSON.parse(connection.discovery) as IdpMetadata;
  return {
    saml: {
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      metadataUrl: connection.metadataUrl,
      wantAssertionsSigned: connection.wantAssertionsSigned === 1,
      certificates: idp.certificates.map(({ fingerprint, notAfter }) => ({ fingerprint, notAfter })),
    },
    sp: samlEndpointsOf(base, connection.id),
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
  /** The address that redirect URIs and ACS URLs are made from, and where it comes from. */
  serviceAddress: { baseUrl: string; from: 'PUBLIC_BASE_URL' | 'request' };
}
