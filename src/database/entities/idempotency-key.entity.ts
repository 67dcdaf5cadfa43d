import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn, VarcharColumn } from '../columns';

/**
 * One Idempotency-Key of one caller (docs/organisation.md, "Safe retries"): claimed by the first
 * request before it does its work, then holding that request's answer for replays, for 24 hours.
 */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  /** The caller's user id: a key is the caller's own, so two callers never share one. */
  @PrimaryColumn({ name: 'caller_id', type: 'varchar', length: 128 })
  callerId: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 255 })
  key: string;

  /** SHA-256 (hex) of the method, path and canonical body: a retry must be the same request. */
  @VarcharColumn(64, { name: 'request_hash' })
  requestHash: string;

  /** The request working under the key; null once its answer is stored. */
  @VarcharColumn(36, { name: 'claim_id', nullable: true })
  claimId: string | null;

  /** When the claim lapses: a claim still open after it belongs to a request that died. */
  @TimestampColumn('claimed_until', { nullable: true })
  claimedUntil: Date | null;

  /** The stored answer's status; null while the first request is working. */
  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus: number | null;

  /** The stored answer's body, as JSON. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @TimestampColumn('created_at')
  createdAt: Date;
}
