import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { PAGING_ERRORS } from '../common/paging';

/** Where a page ended: the (occurredAt, id) of its last event, the listing's order. */
export interface AuditCursor {
  occurredAt: Date;
  id: string;
}

/** The cursor's key for common/paging: the event's time in epoch milliseconds, then its id. */
export const auditCursorKey = ({ occurredAt, id }: AuditCursor): string[] => [String(occurredAt.getTime()), id];

/** The cursor of a key that auditCursorKey made; any other key is an invalid cursor (400). */
export function auditCursorOf([time, id]: string[]): AuditCursor {
  if (!/^\d{1,15}$/.test(time) || !/^[0-9a-f-]{36}$/.test(id))
    throw new ApiError(HttpStatus.BAD_REQUEST, PAGING_ERRORS.invalidCursor);
  return { occurredAt: new Date(Number(time)), id };
}
