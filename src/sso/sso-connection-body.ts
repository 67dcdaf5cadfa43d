import { HttpStatus } from '@nestjs/common';
import { SSO_ERRORS, ssoRefusal } from './sso.messages';

/** The roles a connection may give at a first sign-in: never owner. */
export const SSO_DEFAULT_ROLES = ['member', 'admin'] as const;
const DEFAULT_SCOPES = ['openid', 'email', 'profile'];
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/;

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
}

/** A new SAML connection: its provider's metadata pasted, or the address it is read from. */
export interface NewSamlConnection extends NewConnectionSettings {
  type: 'saml';
  metadata: SamlMetadataSource;
  wantAssertionsSigned: boolean;
}

export type SamlMetadataSource = { xml: string } | { url: string };

/** What PATCH may change. */
export interface ConnectionPatch {
  name?: string;
  jit?: boolean;
  defaultRole?: string;
  allowIdpInitiated?: boolean;
  status?: 'active' | 'inactive';
  /** true only: another connection is made primary by making it so. */
  primary?: true;
  clientSecret?: string;
  scopes?: string[];
  metadata?: SamlMetadataSource;
  wantAssertionsSigned?: boolean;
}

/** The most metadata an owner may paste (an IdP's with a few certificates is a few kilobytes). */
const MAX_METADATA_CHARS = 512 * 1024;

const invalid = (reason: string) => ssoRefusal(HttpStatus.BAD_REQUEST, SSO_ERRORS.invalid, reason);

function objectOf(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the body must be a JSON object');
  return body as Record<string, unknown>;
}

function text(fields: Record<string, unknown>, name: string, max: number): string | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > max)
    throw invalid(`${name} must be a string of 1 to ${max} characters`);
  return value;
}

function flag(fields: Record<string, unknown>, name: string): boolean | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalid(`${name} must be true or false`);
  return value;
}

function role(fields: Record<string, unknown>): string | undefined {
  const value = fields.defaultRole;
  if (value === undefined) return undefined;
  if (!(SSO_DEFAULT_ROLES as readonly unknown[]).includes(value))
    throw invalid('defaultRole must be "member" or "admin" (never owner)');
  return value as string;
}

/** An array of scope tokens or one space-separated string; openid always among them. */
function scopes(fields: Record<string, unknown>): string[] | undefined {
  const value = fields.scopes;
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? value.split(' ').filter(Boolean) : value;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.length > 20 ||
    !list.every((s) => typeof s === 'string' && SCOPE.test(s))
  )
    throw invalid('scopes must be an array of up to 20 scope tokens (or one space-separated string)');
  if (!list.includes('openid')) throw invalid('scopes must include openid');
  return [...new Set(list as string[])];
}

/** SAML's metadata: `metadataXml` or `metadataUrl`, not both; undefined when neither is given. */
function metadataSource(fields: Record<string, unknown>): SamlMetadataSource | undefined {
  const xml = text(fields, 'metadataXml', MAX_METADATA_CHARS);
  const url = text(fields, 'metadataUrl', 2048);
  if (xml !== undefined && url !== undefined) throw invalid('give metadataXml or metadataUrl, not both');
  if (url !== undefined && (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)))
    throw invalid('metadataUrl must be an http or https URL');
  return xml !== undefined ? { xml } : url !== undefined ? { url } : undefined;
}

/** The settings that both protocols share, with their defaults. */
function settingsOf(fields: Record<string, unknown>): NewConnectionSettings {
  return {
    name: text(fields, 'name', 200) ?? null,
    jit: flag(fields, 'jit') ?? true,
    defaultRole: role(fields) ?? 'member',
    allowIdpInitiated: flag(fields, 'allowIdpInitiated') ?? false,
  };
}

/** POST /api/org/sso/connections' body: `type` "oidc" or "saml", and that protocol's fields. */
export function readNewConnection(body: unknown): NewOidcConnection | NewSamlConnection {
  const fields = objectOf(body);
  if (fields.type === 'saml') {
    const metadata = metadataSource(fields);
    if (metadata === undefined) throw invalid('a SAML connection needs metadataXml or metadataUrl');
    return {
      type: 'saml',
      metadata,
      wantAssertionsSigned: flag(fields, 'wantAssertionsSigned') ?? true,
      ...settingsOf(fields),
    };
  }
  if (fields.type !== 'oidc') throw invalid('type must be "oidc" or "saml"');
  const issuer = text(fields, 'issuer', 500);
  if (issuer === undefined || !URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol))
    throw invalid('issuer must be an http or https URL');
  const clientId = text(fields, 'clientId', 255);
  if (clientId === undefined) throw invalid('clientId is required');
  const clientSecret = text(fields, 'clientSecret', 1000);
  if (clientSecret === undefined) throw invalid('clientSecret is required');
  return {
    type: 'oidc',
    issuer,
    clientId,
    clientSecret,
    scopes: scopes(fields) ?? DEFAULT_SCOPES,
    ...settingsOf(fields),
  };
}

/** PATCH's body: at least one known field. */
export function readConnectionPatch(body: unknown): ConnectionPatch {
  const fields = objectOf(body);
  const status = fields.status;
  if (status !== undefined && status !== 'active' && status !== 'inactive')
    throw invalid('status must be "active" or "inactive"');
  if (fields.primary !== undefined && fields.primary !== true)
    throw invalid('primary must be true: to change the primary, make another connection primary');
  const patch: ConnectionPatch = {
    name: text(fields, 'name', 200),
    jit: flag(fields, 'jit'),
    defaultRole: role(fields),
    allowIdpInitiated: flag(fields, 'allowIdpInitiated'),
    status: status as ConnectionPatch['status'],
    primary: fields.primary as ConnectionPatch['primary'],
    clientSecret: text(fields, 'clientSecret', 1000),
    scopes: scopes(fields),
    metadata: metadataSource(fields),
    wantAssertionsSigned: flag(fields, 'wantAssertionsSigned'),
  };
  for (const key of Object.keys(patch) as (keyof ConnectionPatch)[]) if (patch[key] === undefined) delete patch[key];
  if (Object.keys(patch).length === 0)
    throw invalid(
      'give at least one of name, jit, defaultRole, allowIdpInitiated, status, primary, clientSecret, scopes, ' +
        'metadataXml, metadataUrl, wantAssertionsSigned',
    );
  return patch;
}
