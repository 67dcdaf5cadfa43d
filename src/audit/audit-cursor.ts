/** Where a page ended: the (occurredAt, id) of its last event, the listing's order. */
export interface AuditCursor {
  occurredAt: Date;
  id: string;
}

/** Opaque to clients: base64url of `<epoch ms>.<id>`. */
export function encodeAuditCursor({ occurredAt, id }: AuditCursor): string {
  return Buffer.from(`${occurredAt.getTime()}.${id}`).toString('base64url');
}

/** The cursor, or null when it is not one this service made. */
export function decodeAuditCursor(cursor: string): AuditCursor | null {
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? { occurredAt: new Date(Number(match[1])), id: match[2] } : null;
}
