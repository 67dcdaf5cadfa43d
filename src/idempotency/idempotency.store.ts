import { DataSource, IsNull, LessThan, Repository } from 'typeorm';
import { IdempotencyKeyEntity } from '../database/entities';
import { SqlStore } from '../database/sql-store';

/** A request's hold on a key, from its claim until its answer is stored or the claim is released. */
export interface IdempotencyClaim {
  callerId: string;
  key: string;
  claimId: string;
}

/** The idempotency_keys rows, with parameterised queries only. */
@SqlStore()
export class IdempotencyStore {
  constructor(private readonly dataSource: DataSource) {}

  private get keys(): Repository<IdempotencyKeyEntity> {
    return this.dataSource.getRepository(IdempotencyKeyEntity);
  }

  /**
   * Claims the key with one INSERT: the primary key (caller, key) lets exactly one of parallel
   * claims in, on any instance. False when the key is taken. An insert that failed while no row
   * holds the key failed for another reason: that error is thrown.
   */
  async claim(row: IdempotencyKeyEntity): Promise<boolean> {
    try {
      await this.keys.insert(row);
      return true;
    } catch (error) {
      if (await this.find(row.callerId, row.key)) return false;
      throw error;
    }
  }

  /** The row of the caller's key, matched exactly (MySQL's collation for it is binary, as SQLite compares). */
  async find(callerId: string, key: string): Promise<IdempotencyKeyEntity | null> {
    return this.keys.findOneBy({ callerId, key });
  }

  /** Takes over a claim that lapsed (its request died), if no other request took it first. */
  async takeOver(lapsed: IdempotencyKeyEntity, claimId: string, claimedUntil: Date): Promise<boolean> {
    const result = await this.keys.update(
      { callerId: lapsed.callerId, key: lapsed.key, claimId: lapsed.claimId!, responseStatus: IsNull() },
      { claimId, claimedUntil },
    );
    return result.affected === 1;
  }

  /** Stores the claim's answer; nothing if the claim was lost meanwhile (it lapsed and was taken over). */
  async complete(claim: IdempotencyClaim, status: number, body: unknown): Promise<void> {
    await this.keys.update(
      { callerId: claim.callerId, key: claim.key, claimId: claim.claimId },
      { responseStatus: status, responseBody: JSON.stringify(body ?? null), claimId: null, claimedUntil: null },
    );
  }

  /** Gives the key up, answer unstored, so that a retry runs the request again. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.keys.delete({
      callerId: claim.callerId,
      key: claim.key,
      claimId: claim.claimId,
      responseStatus: IsNull(),
    });
  }

  /** Deletes the caller's key if it was created before `cutoff`; the next claim then starts afresh. */
  async deleteIfCreatedBefore(callerId: string, key: string, cutoff: Date): Promise<void> {
    await this.keys.delete({ callerId, key, createdAt: LessThan(cutoff) });
  }

  /**
   * Deletes every key created before `cutoff`, through the created_at index; how many. One
   * statement: the table holds one day of keys.
   */
  async deleteCreatedBefore(cutoff: Date): Promise<number> {
    return (await this.keys.delete({ createdAt: LessThan(cutoff) })).affected ?? 0;
  }
}
