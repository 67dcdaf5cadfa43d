/** A setup link (docs/setup-links.md), and what was made through it. */
import { Entity, PrimaryColumn } from 'typeorm';
import { IdColumn, TimestampColumn, VarcharColumn } from '../columns';

/** What a link may set up, in the order its steps come. */
export const SETUP_INTENTS = ['domain', 'sso', 'scim'] as const;
export type SetupIntent = (typeof SETUP_INTENTS)[number];

/**
 * A link that an owner sends to the IT admin: its token is kept only as its SHA-256; its status is
 * read from its columns (setup-link.ts): revoked, completed, expired or open.
 */
@Entity({ name: 'setup_links' })
export class SetupLinkEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  /** SHA-256 of the token, hex. */
  @VarcharColumn(64, { name: 'token_hash' })
  tokenHash: string;

  /** The granted intents, comma-separated in SETUP_INTENTS' order. */
  @VarcharColumn(32)
  intents: string;

  /** Where the link was e-mailed, if it was. */
  @VarcharColumn(320, { nullable: true })
  email: string | null;

  @VarcharColumn(128, { name: 'created_by' })
  createdBy: string;

  @TimestampColumn('created_at')
  createdAt: Date;

  @TimestampColumn('expires_at')
  expiresAt: Date;

  @TimestampColumn('last_opened_at', { nullable: true })
  lastOpenedAt: Date | null;

  @TimestampColumn('completed_at', { nullable: true })
  completedAt: Date | null;

  @TimestampColumn('revoked_at', { nullable: true })
  revokedAt: Date | null;

  /** When its `setup_link.expired` event was written: once per link. */
  @TimestampColumn('expiry_recorded_at', { nullable: true })
  expiryRecordedAt: Date | null;
}

/** What a link made: the domain claims and connections that it alone may change and take back; the owners are told of them. */
export const SETUP_ITEM_KINDS = ['domain', 'sso_connection'] as const;
export type SetupItemKind = (typeof SETUP_ITEM_KINDS)[number];

@Entity({ name: 'setup_link_items' })
export class SetupLinkItemEntity {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind: SetupItemKind;

  /** The domain claim's or the connection's id. */
  @PrimaryColumn({ type: 'varchar', length: 36, name: 'item_id' })
  itemId: string;

  @VarcharColumn(36, { name: 'link_id' })
  linkId: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  @TimestampColumn('created_at')
  createdAt: Date;
}
