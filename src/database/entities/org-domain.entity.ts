import { Entity, PrimaryColumn } from 'typeorm';
import { IdColumn, TimestampColumn, VarcharColumn } from '../columns';

export const DOMAIN_STATUSES = ['pending', 'verified', 'failing', 'lapsed', 'expired'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
export const JOIN_MODES = ['off', 'request', 'auto'] as const;
export type JoinMode = (typeof JOIN_MODES)[number];

/** An organisation's claim on an e-mail domain (docs/domains.md). */
@Entity({ name: 'org_domains' })
export class OrgDomainEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  /** Normalised: lower-case A-labels, no trailing dot. */
  @VarcharColumn(253)
  name: string;

  @VarcharColumn(16)
  status: DomainStatus;

  @VarcharColumn(16, { name: 'join_mode' })
  joinMode: JoinMode;

  /** The claim's own random token: the TXT record's value is `tenant-verification=<token>`. */
  @VarcharColumn(64)
  token: string;

  /** When the token was issued: its window ends DOMAIN_VERIFICATION_TTL_SECONDS later. */
  @TimestampColumn('token_issued_at')
  tokenIssuedAt: Date;

  @TimestampColumn('last_check_at', { nullable: true })
  lastCheckAt: Date | null;

  @VarcharColumn(32, { name: 'last_check_result', nullable: true })
  lastCheckResult: string | null;

  @TimestampColumn('verified_at', { nullable: true })
  verifiedAt: Date | null;

  @TimestampColumn('grace_ends_at', { nullable: true })
  graceEndsAt: Date | null;

  /** When the background re-check is due (verified or failing claims only); the claim of a check moves it on. */
  @TimestampColumn('next_check_at', { nullable: true })
  nextCheckAt: Date | null;

  /** The name while verified or failing, else null: unique, so that one organisation at most holds a name. */
  @VarcharColumn(253, { name: 'held_name', nullable: true })
  heldName: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;
}

/** A custom role that a domain gives the people who join by it (docs/domains.md, "Default roles"). */
@Entity({ name: 'org_domain_roles' })
export class OrgDomainRoleEntity {
  @PrimaryColumn({ name: 'domain_id', type: 'varchar', length: 36 })
  domainId: string;

  @PrimaryColumn({ name: 'role_key', type: 'varchar', length: 40 })
  roleKey: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;
}
