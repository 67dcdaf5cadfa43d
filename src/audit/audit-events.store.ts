import { Injectable } from '@nestjs/common';
import { Brackets, DataSource, In, LessThan, SelectQueryBuilder } from 'typeorm';
import { AuditEventEntity } from '../database/entities';
import { AuditCursor } from './audit-cursor';
import { AuditEventType } from './audit-event';

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

/** Rows deleted per statement by the retention purge: short transactions, short locks. */
export const AUDIT_PURGE_BATCH = 1_000;

/** The audit_events rows, newest first, with parameterised queries only. */
@Injectable()
export class AuditEventsStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` events in (occurredAt, id) descending order. Keyset paging: a page starts
   * below the cursor through the index, never by skipping rows, so every page costs the same.
   */
  async list(filter: AuditEventFilter, limit: number): Promise<AuditEventEntity[]> {
    return this.listQuery(filter, limit).getMany();
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
