import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IdColumn, TimestampColumn, VarcharColumn } from '../columns';

export const SSO_CONNECTION_STATUSES = ['draft', 'active', 'inactive'] as const;
export type SsoConnectionStatus = (typeof SSO_CONNECTION_STATUSES)[number];

export type SsoConnectionType = 'oidc' | 'saml';

/** How an OIDC client authenticates at the token endpoint (RFC 6749 §2.3.1; OpenID Connect Core §9). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/** An organisation's connection to its identity provider (docs/sso.md): OIDC or SAML. */
@Entity({ name: 'sso_connections' })
export class SsoConnectionEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  @VarcharColumn(8)
  type: SsoConnectionType;

  @VarcharColumn(200)
  name: string;

  @VarcharColumn(16)
  status: SsoConnectionStatus;

  /** 1 or 0: a person in no organisation joins at their first sign-in. */
  @Column({ type: 'int' })
  jit: number;

  @VarcharColumn(16, { name: 'default_role' })
  defaultRole: string;

  /** 1 or 0. */
  @Column({ type: 'int', name: 'allow_idp_initiated' })
  allowIdpInitiated: number;

  /** OIDC: the issuer as discovered; SAML: the IdP's entity ID, which its assertions' Issuer must equal. */
  @VarcharColumn(500)
  issuer: string;

  /** OIDC only ('' for SAML), as are the secret and the scopes. */
  @VarcharColumn(255, { name: 'client_id' })
  clientId: string;

  /** AES-256-GCM with SSO_SECRETS_KEY (sso-secrets.ts): never the secret in clear. */
  @VarcharColumn(2000, { name: 'client_secret' })
  clientSecret: string;

  /** Space-separated. */
  @VarcharColumn(500)
  scopes: string;

  /** OIDC: how the client secret goes to the token endpoint (SAML: the column's default, never read). */
  @Column({ type: 'varchar', length: 32, name: 'token_endpoint_auth_method', default: 'client_secret_basic' })
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;

  /**
   * What the provider says of itself, as JSON: OIDC, the fields of its discovery document that a
   * sign-in uses; SAML, what its metadata gives (saml/saml-metadata.ts: SSO URL, certificates).
   */
  @Column({ type: 'text' })
  discovery: string;

  /** SAML: the address an owner gave for the metadata, read again by refresh; null when pasted, and for OIDC. */
  @VarcharColumn(2048, { name: 'metadata_url', nullable: true })
  metadataUrl: string | null;

  /** 1 or 0, SAML: the assertion itself must be signed, not only the response around it. */
  @Column({ type: 'int', name: 'want_assertions_signed', default: 1 })
  wantAssertionsSigned: number;

  /** SAML: the notAfter of the last valid certificate that sso.certificate_expiring warned about (once each). */
  @TimestampColumn('expiry_warned_for', { nullable: true })
  expiryWarnedFor: Date | null;

  @TimestampColumn('discovered_at')
  discoveredAt: Date;

  /** When it last became active: the earliest of the active ones is the primary. */
  @TimestampColumn('activated_at', { nullable: true })
  activatedAt: Date | null;

  /** When an owner made it the primary (docs/sso.md, "Primary"). */
  @TimestampColumn('primary_at', { nullable: true })
  primaryAt: Date | null;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('updated_at')
  updatedAt: Date;
}

export type SsoRequestPurpose = 'sign_in' | 'test';

/** A sign-in sent to the identity provider and not yet answered: used once, within its expiry. */
@Entity({ name: 'sso_requests' })
export class SsoRequestEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  state: string;

  @VarcharColumn(36, { name: 'connection_id' })
  connectionId: string;

  @VarcharColumn(64)
  nonce: string;

  @VarcharColumn(128, { name: 'code_verifier' })
  codeVerifier: string;

  @VarcharColumn(2048, { name: 'return_to' })
  returnTo: string;

  /** A sign-in, or an owner's test sign-in: every check, no membership, no session. */
  @VarcharColumn(8)
  purpose: SsoRequestPurpose;

  @TimestampColumn('expires_at')
  expiresAt: Date;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('used_at', { nullable: true })
  usedAt: Date | null;
}

/** A person as a connection knows them: by the provider's subject, from their first sign-in on. */
@Entity({ name: 'sso_identities' })
export class SsoIdentityEntity {
  @PrimaryColumn({ type: 'varchar', length: 36, name: 'connection_id' })
  connectionId: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  subject: string;

  @VarcharColumn(128, { name: 'user_id' })
  userId: string;

  @VarcharColumn(320)
  email: string;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('last_login_at')
  lastLoginAt: Date;
}

/** One sign-in's outcome: `ok` or the refusal's code, and the check that failed (never a token). */
@Entity({ name: 'sso_attempts' })
export class SsoAttemptEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(36, { name: 'connection_id' })
  connectionId: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  @TimestampColumn('at')
  at: Date;

  @VarcharColumn(64)
  result: string;

  @VarcharColumn(320, { nullable: true })
  email: string | null;

  @VarcharColumn(255, { nullable: true })
  subject: string | null;

  @VarcharColumn(1000)
  detail: string;
}

/** An organisation that requires single sign-on of its members (docs/sso.md, "Enforcement"): a row while it does. */
@Entity({ name: 'sso_enforcements' })
export class SsoEnforcementEntity {
  @PrimaryColumn({ type: 'varchar', length: 128, name: 'tenant_id' })
  tenantId: string;

  @TimestampColumn('enforced_at')
  enforcedAt: Date;

  /** The owner who turned it on. */
  @VarcharColumn(128, { name: 'enforced_by', nullable: true })
  enforcedBy: string | null;
}

/** An assertion a SAML connection accepted: kept until it expires, so that a replay is refused on every instance. */
@Entity({ name: 'sso_assertions' })
export class SsoAssertionEntity {
  @PrimaryColumn({ type: 'varchar', length: 36, name: 'connection_id' })
  connectionId: string;

  @PrimaryColumn({ type: 'varchar', length: 255, name: 'assertion_id' })
  assertionId: string;

  @TimestampColumn('expires_at')
  expiresAt: Date;
}
