/** A write refused by a unique index, on either dialect, however TypeORM or the driver wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { driverError?: unknown })?.driverError];
  return candidates.some((candidate) => {
    const code = String((candidate as { code?: unknown })?.code ?? '');
    return code === 'ER_DUP_ENTRY' || code.startsWith('SQLITE_CONSTRAINT');
  });
}
