import { NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter, Insert, RequiredUpdate, Statement } from '../database/atomic-writer';
import { ScimUserEntity } from '../database/entities';
import { PreparedStatements, Row, sqlTimestamp, timestamp } from '../database/prepared-statements';
import { EqConditions, UserFilterAttribute } from './scim-filter';
import { filteredPage, ListQuery } from '../database/filtered-page';
import { SqlStore } from '../database/sql-store';

const USER_COLUMNS =
  'id, tenant_id AS tenantId, user_id AS userId, user_name AS userName, user_name_key AS userNameKey, ' +
  'external_id AS externalId, email_key AS emailKey, active, role, attributes, created_at AS createdAt, ' +
  'last_modified AS lastModified';

const SELECT_BY_ID = `SELECT ${USER_COLUMNS} FROM scim_users WHERE id = ? AND tenant_id = ?`;
const SELECT_BY_USER_NAME = `SELECT ${USER_COLUMNS} FROM scim_users WHERE tenant_id = ? AND user_name_key = ?`;
const SELECT_BY_PERSON = `SELECT ${USER_COLUMNS} FROM scim_users WHERE user_id = ?`;

/** The update of a SCIM user after a PUT or PATCH; last_modified always moves, so the row always changes. */
const UPDATE_USER =
  'UPDATE scim_users SET user_name = ?, user_name_key = ?, external_id = ?, email_key = ?, active = ?, role = ?, ' +
  'attributes = ?, last_modified = ? WHERE id = ? AND tenant_id = ?';
/** The update while the row is as read: its last_modified is the one read (the last parameter). */
const UPDATE_USER_AS_READ = `${UPDATE_USER} AND last_modified = ?`;
const DELETE_USER = 'DELETE FROM scim_users WHERE id = ? AND tenant_id = ?';
const DELETE_USER_MEMBERSHIPS = 'DELETE FROM scim_group_members WHERE scim_user_id = ? AND tenant_id = ?';

const updateParameters = (row: ScimUserEntity): unknown[] => [
  row.userName,
  row.userNameKey,
  row.externalId,
  row.emailKey,
  row.active,
  row.role,
  row.attributes,
  sqlTimestamp(row.lastModified),
  row.id,
  row.tenantId,
];

/** The list's table and columns; each filter attribute's column (userName and e-mails compared case-insensitively). */
const USERS_LIST: ListQuery<UserFilterAttribute> = {
  table: 'scim_users',
  columns: USER_COLUMNS,
  filterColumns: {
    userName: ['user_name_key', (value) => value.toLowerCase()],
    externalId: ['external_id', (value) => value],
    'emails.value': ['email_key', (value) => value.toLowerCase()],
    id: ['id', (value) => value],
  },
};

export function toScimUser(row: Row): ScimUserEntity {
  return {
    id: row.id as string,
    tenantId: row.tenantId as string,
    userId: row.userId as string,
    userName: row.userName as string,
    userNameKey: row.userNameKey as string,
    externalId: (row.externalId as string | null) ?? null,
    emailKey: row.emailKey as string,
    active: Number(row.active),
    role: (row.role as string | null) ?? null,
    attributes: row.attributes as string,
    createdAt: timestamp(row.createdAt),
    lastModified: timestamp(row.lastModified),
  };
}

/**
 * The SQL of scim_users: its reads, the statements of its writes that the membership's transactions
 * carry (JoiningService's, or this store's own commit), and the update that the pool's address change makes alone.
 */
@SqlStore()
export class ScimUsersStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
  ) {}

  /** A new SCIM user's row with its events, for the membership's transaction. */
  created(row: ScimUserEntity, events: NewAuditEvent[]): Insert[] {
    return [[ScimUserEntity, row], ...this.eventRows(events)];
  }

  /** The events' rows, for the membership's transaction. */
  eventRows(events: NewAuditEvent[]): Insert[] {
    return events.flatMap((event) => this.auditRows.of(event));
  }

  /** A change that moves no membership: `required` with the events, in one transaction; false when a row changed meanwhile. */
  saveChanges(events: NewAuditEvent[], required: RequiredUpdate[]): Promise<boolean> {
    return this.commit(this.eventRows(events), required);
  }

  /**
   * Rows of a change that joins nobody (an inactive person's, a detaching), in one transaction
   * (AtomicWriter.insertIfAll); false when a compare-and-set found its row changed meanwhile.
   */
  commit(inserts: Insert[], required: RequiredUpdate[], deletes: Statement[] = []): Promise<boolean> {
    return this.writer.insertIfAll(inserts, required, deletes);
  }

  /** The row as a PUT or PATCH leaves it. */
  updated(row: ScimUserEntity): RequiredUpdate {
    return [UPDATE_USER, updateParameters(row)];
  }

  /** The row gone (a delete, or the undoing of a create). */
  deletion(row: Pick<ScimUserEntity, 'id' | 'tenantId'>): Statement {
    return [DELETE_USER, [row.id, row.tenantId]];
  }

  /** The row's group memberships gone. */
  groupMembershipsDeletion(row: Pick<ScimUserEntity, 'id' | 'tenantId'>): Statement {
    return [DELETE_USER_MEMBERSHIPS, [row.id, row.tenantId]];
  }

  /** The row becomes `row`, only while its last_modified is `read`; false when it changed meanwhile. */
  async updateAsRead(row: ScimUserEntity, read: Date): Promise<boolean> {
    return (await this.statements.changes(UPDATE_USER_AS_READ, [...updateParameters(row), sqlTimestamp(read)])) === 1;
  }

  async find(tenantId: string, id: string): Promise<ScimUserEntity | null> {
    const row = await this.statements.first(SELECT_BY_ID, [id, tenantId]);
    return row && row.id === id ? toScimUser(row) : null;
  }

  async findByUserName(tenantId: string, userNameKey: string): Promise<ScimUserEntity | null> {
    const row = await this.statements.first(SELECT_BY_USER_NAME, [tenantId, userNameKey]);
    return row ? toScimUser(row) : null;
  }

  /** The SCIM user that is this person, in whichever organisation. */
  async findByPerson(userId: string): Promise<ScimUserEntity | null> {
    const row = await this.statements.first(SELECT_BY_PERSON, [userId]);
    return row && row.userId === userId ? toScimUser(row) : null;
  }

  /** A page of the organisation's SCIM users that meet every condition, oldest first; and how many meet them. */
  async list(
    tenantId: string,
    conditions: EqConditions<UserFilterAttribute>,
    startIndex: number,
    count: number,
  ): Promise<{ total: number; users: ScimUserEntity[] }> {
    const { total, rows } = await filteredPage(this.statements, USERS_LIST, tenantId, conditions, startIndex, count);
    return { total, users: rows.map(toScimUser) };
  }

  /** The SCIM users among these ids, of this organisation. */
  async findMany(tenantId: string, ids: string[]): Promise<ScimUserEntity[]> {
    if (!ids.length) return [];
    const rows = await this.statements.rows(
      `SELECT ${USER_COLUMNS} FROM scim_users WHERE tenant_id = ? AND id IN (${ids.map(() => '?').join(', ')})`,
      [tenantId, ...ids],
    );
    return rows.map(toScimUser).filter((user) => ids.includes(user.id));
  }

  /** Every active SCIM user of the organisation (a role mapping's change recomputes them all). */
  async allActive(tenantId: string): Promise<ScimUserEntity[]> {
    const rows = await this.statements.rows(
      `SELECT ${USER_COLUMNS} FROM scim_users WHERE tenant_id = ? AND active = 1`,
      [tenantId],
    );
    return rows.map(toScimUser);
  }
}
