import { DatabaseConfig } from '../config/database-config';
import { describeDatabase } from '../config/config-summary';

/** The SQLite file's directory cannot be made, or the file cannot be created, opened or written. */
const SQLITE_FILE_UNUSABLE =
  'the SQLite file cannot be created or written there: set DATABASE_URL to sqlite:/path/to/file.sqlite in a directory this user may write';

/**
 * What to do, by the code of the error that stopped the database from opening (Node, mysql2,
 * better-sqlite3). A refused connection needs none: "connect ECONNREFUSED host:port" already
 * says that nothing listens where DATABASE_URL points.
 */
const ADVICE: Record<DatabaseConfig['type'], Record<string, string>> = {
  mysql: {
    ENOTFOUND: 'no such host: correct the host in DATABASE_URL',
    EAI_AGAIN: 'the host name could not be resolved: correct the host in DATABASE_URL or check DNS',
    ETIMEDOUT:
      'check the host and port in DATABASE_URL and that this machine may reach them (firewall, security group)',
    ER_ACCESS_DENIED_ERROR: 'correct the user and password in DATABASE_URL',
    ER_ACCESS_DENIED_NO_PASSWORD_ERROR: 'correct the user and password in DATABASE_URL',
    ER_DBACCESS_DENIED_ERROR: 'grant the user in DATABASE_URL access to this database',
    ER_BAD_DB_ERROR: 'create the database first (docs/deploying.md), or correct its name in DATABASE_URL',
    ER_HOST_NOT_PRIVILEGED: 'allow connections from this host for the user in DATABASE_URL',
    ER_CON_COUNT_ERROR: 'the server has no connection left: raise its max_connections, or run fewer instances',
    ER_TABLEACCESS_DENIED_ERROR:
      'grant the user in DATABASE_URL the privileges that migrations need, or run `npm run ' +
      'migration:run` as a user that has them and start with DB_MIGRATIONS_RUN=false',
  },
  sqlite: {
    ENOTDIR: SQLITE_FILE_UNUSABLE,
    EEXIST: SQLITE_FILE_UNUSABLE,
    EACCES: SQLITE_FILE_UNUSABLE,
    EPERM: SQLITE_FILE_UNUSABLE,
    EROFS: SQLITE_FILE_UNUSABLE,
    SQLITE_CANTOPEN: SQLITE_FILE_UNUSABLE,
    SQLITE_READONLY: SQLITE_FILE_UNUSABLE,
    SQLITE_PERM: SQLITE_FILE_UNUSABLE,
    ENOSPC: 'the disk is full: free space where DATABASE_URL points',
    SQLITE_FULL: 'the disk is full: free space where DATABASE_URL points',
    SQLITE_NOTADB: 'the file is not a SQLite database: set DATABASE_URL to another file',
    SQLITE_CORRUPT: 'the SQLite file is damaged: restore it from a backup, or set DATABASE_URL to another file',
  },
};

/** better-sqlite3 reports extended codes (SQLITE_READONLY_DIRECTORY): the primary code's advice fits them. */
function adviceFor(type: DatabaseConfig['type'], code: string): string | undefined {
  return ADVICE[type][code] ?? ADVICE[type][code.replace(/^(SQLITE_[A-Z]+)_\w+$/, '$1')];
}

/**
 * The database could not be opened (or migrated) at start-up. Its message is the one line that
 * main.ts prints: where the database is (never the credentials), why it failed and, when the
 * cause is known, what to do.
 */
export class DatabaseStartupError extends Error {
  constructor(
    override readonly cause: unknown,
    database: DatabaseConfig,
  ) {
    const { code, message } =
      cause instanceof Error ? (cause as NodeJS.ErrnoException) : { code: undefined, message: String(cause) };
    const advice = code === undefined ? undefined : adviceFor(database.type, code);
    super(`Database unavailable (${describeDatabase(database)}): ${message}${advice ? `; ${advice}` : ''}`);
    this.name = 'DatabaseStartupError';
  }
}
