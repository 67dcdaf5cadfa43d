import { Injectable } from '@nestjs/common';
import { decodeCursor, toPage } from '../common/paging';
import { auditCursorKey, auditCursorOf } from './audit-cursor';
import { AuditEvent, toAuditEvent } from './audit-event';
import { AuditEventsStore } from './audit-events.store';
import { ListAuditEventsQuery } from './dto/list-audit-events.query';

export interface AuditEventPage {
  events: AuditEvent[];
  nextCursor?: string;
}

/** The audit trail listings: every tenant's for super-admins, one tenant's for its owners and admins. */
@Injectable()
export class AuditEventsService {
  constructor(private readonly store: AuditEventsStore) {}

  /** `tenantId` null: every event (the admin route); otherwise that tenant's only. */
  async list(query: ListAuditEventsQuery, tenantId: string | null): Promise<AuditEventPage> {
    const after = query.cursor === undefined ? undefined : auditCursorOf(decodeCursor(query.cursor, 2));
    const rows = await this.store.list(
      {
        tenantId: tenantId ?? undefined,
        types: query.type,
        actorId: query.actorId,
        targetId: query.targetId,
        since: query.since === undefined ? undefined : new Date(query.since),
        until: query.until === undefined ? undefined : new Date(query.until),
        after,
      },
      query.limit + 1, // one more than the page: whether there is a next page
    );
    const page = toPage(rows, { limit: query.limit }, auditCursorKey);
    return { events: page.items.map(toAuditEvent), ...(page.nextCursor && { nextCursor: page.nextCursor }) };
  }
}
