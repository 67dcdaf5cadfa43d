import { DatabaseStartupError } from './database-startup-error';

const failure = (code: string, message: string) => Object.assign(new Error(message), { code });
const mysql = { type: 'mysql', url: 'mysql://tenants:db-password@db.internal:3306/tenants' } as const;
const sqlite = { type: 'sqlite', database: '/srv/data/tenants.sqlite' } as const;

describe(DatabaseStartupError.name, () => {
  it('names the database without its credentials, the cause, and what to do', () => {
    const error = new DatabaseStartupError(
      failure('ER_ACCESS_DENIED_ERROR', "Access denied for user 'tenants'@'10.0.0.5' (using password: YES)"),
      mysql,
    );
    expect(error.message).toBe(
      "Database unavailable (mysql at db.internal:3306/tenants): Access denied for user 'tenants'@'10.0.0.5' (using password: YES); " +
        'correct the user and password in DATABASE_URL',
    );
    expect(error.message).not.toContain('db-password');
  });

  it("takes the advice of the primary code for better-sqlite3's extended codes", () => {
    expect(
      new DatabaseStartupError(failure('SQLITE_READONLY_DIRECTORY', 'attempt to write a readonly database'), sqlite)
        .message,
    ).toBe(
      'Database unavailable (sqlite /srv/data/tenants.sqlite): attempt to write a readonly database; ' +
        'the SQLite file cannot be created or written there: set DATABASE_URL to ' +
        'sqlite:/path/to/file.sqlite in a directory this user may write',
    );
  });

  it('says only the cause when it speaks for itself or is not known', () => {
    expect(new DatabaseStartupError(failure('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.7:3306'), mysql).message).toBe(
      'Database unavailable (mysql at db.internal:3306/tenants): connect ECONNREFUSED 10.0.0.7:3306',
    );
    expect(new DatabaseStartupError('something odd', sqlite).message).toBe(
      'Database unavailable (sqlite /srv/data/tenants.sqlite): something odd',
    );
  });
});
