import { SsoConnectionEntity } from '../database/entities';
import { TokenEndpointAuthMethod } from '../database/entities/sso.entity';
import { CreateConnectionBody, UpdateConnectionBody } from './dto/sso-bodies';
import { defaultAuthMethod, Discovery } from './oidc/oidc-client';
import { ConnectionChanges } from './sso-connections.store';
import { sealSecret } from './sso-secrets';

/*
 * What a connection's body, validated by its DTO (dto/sso-bodies.ts), means to the service: a new
 * connection with its defaults, and where SAML's metadata comes from.
 */

const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

/** What every new connection has, whatever its protocol. */
interface NewConnectionSettings {
  name: string | null;
  jit: boolean;
  defaultRole: string;
  allowIdpInitiated: boolean;
}

/** A new OIDC connection as an owner gives it. */
export interface NewOidcConnection extends NewConnectionSettings {
  type: 'oidc';
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** Undefined: the discovery document's choice (defaultAuthMethod). */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
}

/** A new SAML connection: its provider's metadata pasted, or the address it is read from. */
export interface NewSamlConnection extends NewConnectionSettings {
  type: 'saml';
  metadata: SamlMetadataSource;
  wantAssertionsSigned: boolean;
}

export type SamlMetadataSource = { xml: string } | { url: string };

/** The metadata a body gives, pasted or by address (its DTO lets through one at most); undefined for none. */
export function metadataSourceOf(body: { metadataXml?: string; metadataUrl?: string }): SamlMetadataSource | undefined {
  if (body.metadataXml !== undefined) return { xml: body.metadataXml };
  return body.metadataUrl !== undefined ? { url: body.metadataUrl } : undefined;
}

/** A list of scopes as stored: each once, in the order given. */
export const distinctScopes = (scopes: string[]): string[] => [...new Set(scopes)];

/**
 * The new connection that a valid POST body describes, with the defaults of what it leaves out; its
 * DTO required the protocol's own fields.
 */
export function newConnectionOf(body: CreateConnectionBody): NewOidcConnection | NewSamlConnection {
  const settings: NewConnectionSettings = {
    name: body.name ?? null,
    jit: body.jit ?? true,
    defaultRole: body.defaultRole ?? 'member',
    allowIdpInitiated: body.allowIdpInitiated ?? false,
  };
  if (body.type === 'saml')
    return {
      type: 'saml',
      metadata: metadataSourceOf(body)!,
      wantAssertionsSigned: body.wantAssertionsSigned ?? true,
      ...settings,
    };
  return {
    type: 'oidc',
    issuer: body.issuer!,
    clientId: body.clientId!,
    clientSecret: body.clientSecret!,
    scopes: distinctScopes(body.scopes ?? DEFAULT_SCOPES),
    tokenEndpointAuthMethod: body.tokenEndpointAuthMethod,
    ...settings,
  };
}

/**
 * What a valid PATCH changes of an OIDC connection: another issuer with its `discovery` (read by the
 * caller), the client id, secret (sealed under `key`), scopes and authentication method; the id, the
 * redirect URI and the people's links stay. A method the new document does not offer gives way to its
 * default, unless the owner chose it.
 */
export function oidcChangesOf(
  connection: SsoConnectionEntity,
  patch: UpdateConnectionBody,
  { discovery, key, now }: { discovery?: Discovery; key: Buffer; now: Date },
): ConnectionChanges {
  const changes: ConnectionChanges = {};
  if (discovery) {
    Object.assign(changes, { issuer: discovery.issuer, discovery: JSON.stringify(discovery), discoveredAt: now });
    const offered = discovery.token_endpoint_auth_methods_supported;
    if (offered && !offered.includes(connection.tokenEndpointAuthMethod))
      changes.tokenEndpointAuthMethod = defaultAuthMethod(discovery);
  }
  if (patch.clientId !== undefined && patch.clientId !== connection.clientId) changes.clientId = patch.clientId;
  // The owner's choice wins over the new document's default.
  if (patch.tokenEndpointAuthMethod === connection.tokenEndpointAuthMethod) delete changes.tokenEndpointAuthMethod;
  else if (patch.tokenEndpointAuthMethod !== undefined) changes.tokenEndpointAuthMethod = patch.tokenEndpointAuthMethod;
  if (patch.scopes !== undefined) changes.scopes = distinctScopes(patch.scopes).join(' ');
  if (patch.clientSecret !== undefined) changes.clientSecret = sealSecret(key, connection.id, patch.clientSecret);
  return changes;
}
