import { FindOptionsWhere, IsNull, MoreThan, Repository } from 'typeorm';
import { emailKey, sameEmail } from '../../common/email-comparison';
import { HoldingQuery, Insert, RequiredUpdate } from '../../database/atomic-writer';
import { forceIndex } from '../../database/force-index';
import { UserEntity } from '../../database/entities';
import { TenantStatus } from '../../database/entities/tenant.entity';
import {
  SESSION_PROBE_COLUMNS,
  SESSION_PROBE_JOINS,
  SessionAsk,
  sessionProbeParameters,
  toSessionProbe,
} from '../../database/session-probe';
import { SSO_ENFORCED_COLUMN, toTenantGate } from '../../database/tenant-status-reader';
import { PreparedStatements } from '../../database/prepared-statements';
import {
  AccountRows,
  IdentityStore,
  IdentityUser,
  InvalidPageTokenError,
  MemberCounts,
  MemberKey,
  noMembers,
  OrgCallerRead,
  ORG_USER_TYPE,
  SUPER_ADMIN_ROLE,
  TenantRole,
  UserPage,
} from '../identity-store';
import { SqlStore } from '../../database/sql-store';

/** The identity columns of a `users` row, by their entity names: an entity, or a row that the statements below read. */
type IdentityColumns = Pick<UserEntity, 'id' | 'email' | 'platformRole' | 'userType' | 'tenantId' | 'role'>;

export const toIdentityUser = (row: IdentityColumns): IdentityUser => ({
  id: row.id,
  email: row.email,
  platformRole: row.platformRole,
  userType: row.userType,
  tenantId: row.tenantId,
  role: row.role,
});

/**
 * The identity columns of a `users` row, read by a prepared statement (the guards' read on every
 * request), named as the entity's properties so that toIdentityUser reads them.
 */
const USER_COLUMNS = 'id, email, platform_role AS platformRole, user_type AS userType, tenant_id AS tenantId, role';
const SELECT_USER = `SELECT ${USER_COLUMNS} FROM users WHERE id = ?`;
/**
 * SELECT_USER, TenantStatusReader's gate and the request's session in one round trip: one row, each
 * table by primary key, whichever rows exist.
 */
const SELECT_ORG_CALLER =
  'SELECT users.id, users.email, users.platform_role AS platformRole, users.user_type AS userType, ' +
  'users.tenant_id AS tenantId, users.role, tenants.id AS tenantRowId, tenants.status AS tenantStatus, ' +
  `${SSO_ENFORCED_COLUMN} AS tenantSsoEnforced, ${SESSION_PROBE_COLUMNS} FROM (SELECT 1 AS one) o ` +
  `LEFT JOIN users ON users.id = ? LEFT JOIN tenants ON tenants.id = ? ${SESSION_PROBE_JOINS}`;
/**
 * The candidates of withEmail within one tenant, as two index look-ups: (tenant_id, email_key) and
 * (tenant_id, email). Written as one condition with OR, MariaDB read every row of the tenant
 * whose key is null (10,000 for a tenant seeded by hand) on every invite.
 */
const SELECT_TENANT_MEMBER_BY_EMAIL =
  `SELECT ${USER_COLUMNS} FROM users WHERE tenant_id = ? AND email_key = ? ` +
  `UNION SELECT ${USER_COLUMNS} FROM users WHERE tenant_id = ? AND email = ? ORDER BY id`;

/** The same candidates as a condition: the rows of either look-up, no columns needed. */
const TENANT_MEMBER_CANDIDATES =
  'SELECT 1 AS candidate FROM users WHERE tenant_id = ? AND email_key = ? ' +
  'UNION ALL SELECT 1 AS candidate FROM users WHERE tenant_id = ? AND email = ?';

/** Read from the (tenant_id, role) index alone. */
const COUNT_TENANT_MEMBERS_BY_ROLE = 'SELECT role, COUNT(*) AS members FROM users WHERE tenant_id = ? GROUP BY role';
/** A batch of a tenant's members to detach; the limit is written in (a small integer of ours): a LIMIT parameter is not portable. */
const selectTenantMemberIds = (limit: number) => `SELECT id FROM users WHERE tenant_id = ? LIMIT ${Math.trunc(limit)}`;
const detachMembers = (count: number) =>
  `UPDATE users SET tenant_id = NULL, role = NULL WHERE tenant_id = ? AND id IN (${Array(count).fill('?').join(', ')})`;

const tenantMemberParameters = (tenantId: string, email: string) => [
  tenantId,
  emailKey(email),
  tenantId,
  email.toLowerCase(),
];

/** Null-safe equality in both dialects; its parameters are the value, twice. */
const isAsRead = (column: string) => `(${column} = ? OR (${column} IS NULL AND ? IS NULL))`;
/** The row becomes the membership, only if its tenant and role are still the ones its writer judged. */
const JOIN_AS_READ =
  `UPDATE users SET user_type = '${ORG_USER_TYPE}', tenant_id = ?, role = ? ` +
  `WHERE id = ? AND ${isAsRead('tenant_id')} AND ${isAsRead('role')}`;
const CHANGE_ADDRESS = 'UPDATE users SET email = ?, email_key = ? WHERE id = ?';
const DETACH = 'UPDATE users SET tenant_id = NULL, role = NULL WHERE id = ? AND tenant_id = ?';

/**
 * The users row in another store's transaction (a join, SCIM's writes), so that the users table is
 * written here only: the statements and rows that AtomicWriter.insertIfAll takes.
 */
export const localUserRows: AccountRows = {
  /** A new row (the address stored lower-cased, as the CLI stores it), in an organisation or in none. */
  created(id: string, email: string, tenantId: string | null, role: string | null, now: Date): Insert {
    const row: UserEntity = {
      id,
      email: email.toLowerCase(),
      emailKey: emailKey(email),
      platformRole: null,
      userType: tenantId ? ORG_USER_TYPE : null,
      tenantId,
      role,
      createdAt: now,
    };
    return [UserEntity, row];
  },
  /** The row `read` joins `tenantId` with `role`, only while its tenant and role are as read. */
  joined(read: Pick<IdentityUser, 'id' | 'tenantId' | 'role'>, tenantId: string, role: string): RequiredUpdate {
    return [JOIN_AS_READ, [tenantId, role, read.id, read.tenantId, read.tenantId, read.role, read.role]];
  },
  /** The row's address, judged by the unique index on email_key in the writer's transaction. */
  addressChanged(userId: string, address: string): RequiredUpdate {
    return [CHANGE_ADDRESS, [address.toLowerCase(), emailKey(address), userId]];
  },
  /** The row leaves the tenant; the account stays. */
  detached(userId: string, tenantId: string): RequiredUpdate {
    return [DETACH, [userId, tenantId]];
  },
};

/** The page token is the last id of the page, base64url-encoded: keyset paging on (platform_role, id). */
const encodeToken = (lastId: string) => Buffer.from(lastId, 'utf8').toString('base64url');
function decodeToken(token: string): string {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(token)) throw new InvalidPageTokenError();
  const id = Buffer.from(token, 'base64url').toString('utf8');
  if (!id || encodeToken(id) !== token) throw new InvalidPageTokenError();
  return id;
}

/**
 * The rows that may have this e-mail: by the indexed `email_key`, or, for a row written without
 * the key, by `email` in the column's case-insensitive collation. Candidates only: the collation
 * differs between databases, so the caller keeps those that sameEmail accepts.
 */
function withEmail(email: string): FindOptionsWhere<UserEntity>[] {
  return [{ emailKey: emailKey(email) }, { emailKey: IsNull(), email: email.toLowerCase() }];
}

/** Users in the service's own `users` table. E-mails compare by sameEmail, found through an index. */
@SqlStore()
export class LocalIdentityStore extends IdentityStore {
  constructor(
    private readonly users: Repository<UserEntity>,
    private readonly statements: PreparedStatements,
  ) {
    super();
  }

  /** The operator CLI's users:create: a row as given (the CLI checked it). */
  async insertUser(user: IdentityUser, createdAt: Date): Promise<void> {
    await this.users.insert({ ...user, email: user.email.toLowerCase(), emailKey: emailKey(user.email), createdAt });
  }

  /** The operator CLI's listing: a tenant's users, by id. */
  async usersOfTenant(tenantId: string): Promise<IdentityUser[]> {
    return (await this.users.find({ where: { tenantId }, order: { id: 'ASC' } })).map(toIdentityUser);
  }

  async findById(id: string): Promise<IdentityUser | null> {
    const row = (await this.statements.first(SELECT_USER, [id], true)) as IdentityColumns | undefined;
    // MySQL pads trailing spaces even in a binary collation: only the exact id counts.
    return row?.id === id ? toIdentityUser(row) : null;
  }

  /** One round trip: the org guard's read on every request. */
  override async findOrgCaller(ask: SessionAsk, tenantId: string): Promise<OrgCallerRead> {
    const row = (await this.statements.first(
      SELECT_ORG_CALLER,
      [ask.userId, tenantId, ...sessionProbeParameters(ask)],
      true,
    )) as IdentityColumns & {
      tenantRowId: string | null;
      tenantStatus: TenantStatus | null;
      tenantSsoEnforced: unknown;
    };
    // MySQL pads trailing spaces even in a binary collation: only the exact ids count.
    return {
      user: row.id === ask.userId ? toIdentityUser(row) : null,
      gate: row.tenantRowId === tenantId ? toTenantGate(row.tenantStatus, row.tenantSsoEnforced) : null,
      session: toSessionProbe(row, ask.sid),
    };
  }

  async findByEmail(email: string): Promise<IdentityUser[]> {
    const rows = await this.users.find({ where: withEmail(email), order: { id: 'ASC' } });
    return rows.filter((row) => sameEmail(row.email, email)).map(toIdentityUser);
  }

  /** The invite's duplicate check (spec 4.9 rule 8), on every invitation: a prepared statement. */
  async findTenantMemberByEmail(tenantId: string, email: string): Promise<IdentityUser | null> {
    const rows = (await this.statements.rows(
      SELECT_TENANT_MEMBER_BY_EMAIL,
      tenantMemberParameters(tenantId, email),
    )) as IdentityColumns[];
    const row = rows.find((candidate) => sameEmail(candidate.email, email));
    return row ? toIdentityUser(row) : null;
  }

  override tenantMemberCandidates(tenantId: string, email: string): HoldingQuery {
    return [TENANT_MEMBER_CANDIDATES, tenantMemberParameters(tenantId, email)];
  }

  async listSuperAdmins({ limit, token }: { limit: number; token?: string }): Promise<UserPage> {
    const after = token === undefined ? undefined : decodeToken(token);
    const rows = await this.users.find({
      where: { platformRole: SUPER_ADMIN_ROLE, ...(after !== undefined && { id: MoreThan(after) }) },
      order: { id: 'ASC' },
      take: limit + 1,
    });
    const users = rows.slice(0, limit).map(toIdentityUser);
    return rows.length > limit ? { users, nextToken: encodeToken(users[users.length - 1].id) } : { users };
  }

  async grantSuperAdmin(id: string): Promise<void> {
    await this.users.update({ id }, { platformRole: SUPER_ADMIN_ROLE });
  }

  async deleteUser(id: string): Promise<void> {
    await this.users.delete({ id });
  }

  async removeFromTenant(id: string): Promise<void> {
    await this.users.update({ id }, { tenantId: null, role: null });
  }

  /**
   * Keyset paging in code-point order (compareKeys) on the index that migration
   * OrderEmailsByCodePoint made for it: `email` itself is case-insensitive, for its unique index.
   * E-mails are unique; the id only breaks ties of rows written by hand.
   */
  async listTenantMembers(tenantId: string, after: MemberKey | undefined, take: number): Promise<IdentityUser[]> {
    const email =
      this.users.manager.connection.options.type === 'mysql' ? 'user.email_order' : 'user.email COLLATE BINARY';
    const query = this.users.createQueryBuilder('user').where('user.tenantId = :tenantId', { tenantId });
    if (after) {
      // `>=` first, so that the index seeks to the cursor instead of filtering every row before it.
      query.andWhere(`${email} >= :email AND (${email} > :email OR user.id > :id)`, {
        email: after.email,
        id: after.id,
      });
    }
    const ordered = query.orderBy(email, 'ASC').addOrderBy('user.id', 'ASC').limit(take);
    const rows = await forceIndex(ordered, 'IDX_users_tenant_email_order').getMany();
    return rows.map(toIdentityUser);
  }

  async setTenantRole(id: string, role: string): Promise<void> {
    await this.users.update({ id }, { role });
  }

  async countTenantMembers(tenantId: string): Promise<MemberCounts> {
    const counts = noMembers();
    for (const { role, members } of await this.statements.rows(COUNT_TENANT_MEMBERS_BY_ROLE, [tenantId])) {
      if (Object.hasOwn(counts, role as string)) counts[role as TenantRole] = Number(members);
    }
    return counts;
  }

  /** One read of up to `limit` ids by the tenant index, then one UPDATE of those rows: a transaction of its own. */
  async detachTenantMembers(tenantId: string, limit: number): Promise<number> {
    const ids = (await this.statements.rows(selectTenantMemberIds(limit), [tenantId])).map((row) => row.id);
    if (!ids.length) return 0;
    return this.statements.changes(detachMembers(ids.length), [tenantId, ...ids]);
  }

  async ping(): Promise<void> {
    await this.users.query('SELECT 1');
  }

  /** The users rows: in the service's database, so every change goes with its caller's rows. */
  override accountRows(): AccountRows {
    return localUserRows;
  }
}
