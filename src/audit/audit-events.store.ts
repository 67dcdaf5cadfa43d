import { Brackets, DataSource, In, LessThan, SelectQueryBuilder } from 'typeorm';
import { AuditEventEntity } from '../database/entities';
import { AuditCursor } from './audit-cursor';
import { AuditEventType } from './audit-event';
import { SqlStore } from '../database/sql-store';

/** What a listing asks for; every field narrows it. */
export interface AuditEventFilter {
  tenantId?: string;
  types?: AuditEventType[];
  actorId?: string;
  targetId?: string;
  since?: Date;
  until?: Date;
  after?: AuditCursor;
}

/** (occurredAt, id) descending, as the listing orders: ids are ASCII, compared as the database's binary collation does. */
const newestFirst = (a: AuditEventEntity, b: AuditEventEntity): number =>
  b.occurredAt.getTime() - a.occurredAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Rows deleted per statement by the retention purge: short transactions, short locks. */
export const AUDIT_PURGE_BATCH = 1_000;

/** The audit_events rows, newest first, with parameterised queries only. */
@SqlStore()
export class AuditEventsStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` events in (occurredAt, id) descending order. Keyset paging: a page starts
   * below the cursor through the index, never by skipping rows, so every page costs the same.
   */
  async list(filter: AuditEventFilter, limit: number): Promise<AuditEventEntity[]> {
    const types = [...new Set(filter.types ?? [])];
    if (types.length <= 1) return this.listQuery(filter, limit).getMany();
    // Several types: a page of each, each one range of an index that leads with the type (a range
    // over several types would be sorted whole), merged here in the listing's order.
    // One after the other: a request holds one connection of the pool at a time.
    const pages: AuditEventEntity[][] = [];
    for (const type of types) pages.push(await this.listQuery({ ...filter, types: [type] }, limit).getMany());
    return pages.flat().sort(newestFirst).slice(0, limit);
  }

  /** The listing's query, apart so that a test can check its plan. */
  listQuery(filter: AuditEventFilter, limit: number): SelectQueryBuilder<AuditEventEntity> {
    const query = this.dataSource.getRepository(AuditEventEntity).createQueryBuilder('event');
    if (filter.tenantId !== undefined) query.andWhere('event.tenantId = :tenantId', { tenantId: filter.tenantId });
    if (filter.types?.length) query.andWhere('event.type IN (:...types)', { types: filter.types });
    if (filter.actorId !== undefined) query.andWhere('event.actorId = :actorId', { actorId: filter.actorId });
    if (filter.targetId !== undefined) query.andWhere('event.targetId = :targetId', { targetId: filter.targetId });
    if (filter.since) query.andWhere('event.occurredAt >= :since', { since: filter.since });
    if (filter.until) query.andWhere('event.occurredAt <= :until', { until: filter.until });
    const { after } = filter;
    if (after) {
      // Below the cursor in (occurredAt, id) order. The first condition alone is a range of the
      // index, so that a page deep in the trail starts there rather than reading up to it.
      query
        .andWhere('event.occurredAt <= :afterTime', { afterTime: after.occurredAt })
        .andWhere(
          new Brackets((below) =>
            below.where('event.occurredAt < :afterTime').orWhere('event.id < :afterId', { afterId: after.id }),
          ),
        );
    }
    return query.orderBy('event.occurredAt', 'DESC').addOrderBy('event.id', 'DESC').limit(limit);
  }

  /** Deletes the events that occurred before `cutoff`, a batch at a time (oldest first, through the index); how many. */
  async deleteBefore(cutoff: Date): Promise<number> {
    const events = this.dataSource.getRepository(AuditEventEntity);
    let deleted = 0;
    for (;;) {
      const batch = await events.find({
        select: { id: true },
        where: { occurredAt: LessThan(cutoff) },
        order: { occurredAt: 'ASC' },
        take: AUDIT_PURGE_BATCH,
      });
      if (!batch.length) return deleted;
      deleted += (await events.delete({ id: In(batch.map((event) => event.id)) })).affected ?? 0;
      if (batch.length < AUDIT_PURGE_BATCH) return deleted;
    }
  }
}
