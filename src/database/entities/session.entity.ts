/** A session that this service issued (docs/sessions.md), and a person's "not before" instant. */
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IdColumn, TimestampColumn, VarcharColumn } from '../columns';

/** How a session was made: a single sign-on (with its connection), the operator CLI, test mode. */
export const SESSION_KINDS = ['sso', 'cli', 'test'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/** Why a session ended before its time (the `session.revoked` event's `reason`). */
export const SESSION_REVOCATION_REASONS = [
  'sign_out',
  'self',
  'member_admin',
  'super_admin',
  'removed',
  'deprovisioned',
  'connection_removed',
  'account_deleted',
] as const;
export type SessionRevocationReason = (typeof SESSION_REVOCATION_REASONS)[number];

/** One session: its id is the token's `sid` claim (a credential only with the token's signature). */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @IdColumn(64)
  id: string;

  @VarcharColumn(128, { name: 'user_id' })
  userId: string;

  /** The organisation it was made for; null for a person in none. */
  @VarcharColumn(128, { name: 'tenant_id', nullable: true })
  tenantId: string | null;

  @VarcharColumn(8)
  kind: SessionKind;

  /** The single sign-on connection that made it (kind `sso`). */
  @VarcharColumn(36, { name: 'connection_id', nullable: true })
  connectionId: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;

  /** Written at most once per SESSION_TOUCH_SECONDS. */
  @TimestampColumn('last_used_at')
  lastUsedAt: Date;

  @TimestampColumn('expires_at')
  expiresAt: Date;

  /** SESSION_IDLE_SECONDS when it was made; 0: no idle limit. */
  @Column({ type: 'int', name: 'idle_seconds' })
  idleSeconds: number;

  @VarcharColumn(512, { name: 'user_agent', nullable: true })
  userAgent: string | null;

  @VarcharColumn(64, { nullable: true })
  ip: string | null;

  @TimestampColumn('revoked_at', { nullable: true })
  revokedAt: Date | null;

  @VarcharColumn(32, { name: 'revoked_reason', nullable: true })
  revokedReason: SessionRevocationReason | null;
}

/**
 * A person's "not before" (sign out everywhere, an administrator's revocation): a token without
 * `sid` issued before it (its `iat`, epoch seconds) is no session.
 */
@Entity({ name: 'session_cutoffs' })
export class SessionCutoffEntity {
  @PrimaryColumn({ type: 'varchar', length: 128, name: 'user_id' })
  userId: string;

  @Column({ type: 'bigint', name: 'not_before' })
  notBefore: number;
}
