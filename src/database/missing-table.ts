/**
 * A statement refused because its table does not exist yet, on either dialect, however TypeORM or
 * the driver wraps it: on a database whose migrations are pending (DB_MIGRATIONS_RUN=false before
 * `npm run migration:run`), a normal step of a deploy rather than a fault.
 */
export function isMissingTable(error: unknown): boolean {
  const candidates = [error, (error as { driverError?: unknown })?.driverError];
  return candidates.some((candidate) => {
    const { code, message } = (candidate ?? {}) as { code?: unknown; message?: unknown };
    return (
      code === 'ER_NO_SUCH_TABLE' || (String(code).startsWith('SQLITE_ERROR') && /no such table/.test(String(message)))
    );
  });
}
