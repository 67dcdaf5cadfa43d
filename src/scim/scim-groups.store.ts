import { NewAuditEvent } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter, Insert, Statement } from '../database/atomic-writer';
import { ScimGroupEntity, ScimGroupMemberEntity } from '../database/entities';
import { PreparedStatements, Row, sqlTimestamp, timestamp } from '../database/prepared-statements';
import { isUniqueViolation } from '../database/unique-violation';
import { EqConditions, GroupFilterAttribute } from './scim-filter';
import { filteredPage, ListQuery } from '../database/filtered-page';
import { SqlStore } from '../database/sql-store';

const GROUP_COLUMNS =
  'id, tenant_id AS tenantId, display_name AS displayName, display_name_key AS displayNameKey, ' +
  'external_id AS externalId, created_at AS createdAt, last_modified AS lastModified';
const SELECT_GROUP = `SELECT ${GROUP_COLUMNS} FROM scim_groups WHERE id = ? AND tenant_id = ?`;
const SELECT_BY_NAME = `SELECT ${GROUP_COLUMNS} FROM scim_groups WHERE tenant_id = ? AND display_name_key = ?`;
const SELECT_MEMBER_IDS = 'SELECT scim_user_id AS id FROM scim_group_members WHERE group_id = ? AND tenant_id = ?';
const UPDATE_GROUP =
  'UPDATE scim_groups SET display_name = ?, display_name_key = ?, external_id = ?, last_modified = ? ' +
  'WHERE id = ? AND tenant_id = ?';
const DELETE_GROUP = 'DELETE FROM scim_groups WHERE id = ? AND tenant_id = ?';
const DELETE_MEMBERS_OF_GROUP = 'DELETE FROM scim_group_members WHERE group_id = ? AND tenant_id = ?';
const selectGroupsOfUsers = (count: number) =>
  'SELECT m.scim_user_id AS userId, g.id, g.display_name AS displayName FROM scim_group_members m ' +
  `JOIN scim_groups g ON g.id = m.group_id WHERE m.tenant_id = ? AND m.scim_user_id IN (${Array(count).fill('?').join(', ')}) ` +
  'ORDER BY g.display_name_key, g.id';
const deleteMembers = (count: number) =>
  `DELETE FROM scim_group_members WHERE scim_user_id IN (${Array(count).fill('?').join(', ')}) ` +
  'AND group_id = ? AND tenant_id = ?';

/** The list's table and columns; each filter attribute's column (displayName compared case-insensitively). */
const GROUPS_LIST: ListQuery<GroupFilterAttribute> = {
  table: 'scim_groups',
  columns: GROUP_COLUMNS,
  filterColumns: {
    displayName: ['display_name_key', (value) => value.toLowerCase()],
    externalId: ['external_id', (value) => value],
    id: ['id', (value) => value],
  },
};

const toGroup = (row: Row): ScimGroupEntity => ({
  id: row.id as string,
  tenantId: row.tenantId as string,
  displayName: row.displayName as string,
  displayNameKey: row.displayNameKey as string,
  externalId: (row.externalId as string | null) ?? null,
  createdAt: timestamp(row.createdAt),
  lastModified: timestamp(row.lastModified),
});

const memberRow = (group: ScimGroupEntity, scimUserId: string): Insert => [
  ScimGroupMemberEntity,
  { groupId: group.id, scimUserId, tenantId: group.tenantId } satisfies ScimGroupMemberEntity,
];

/** A group a User is in, as the User's `groups` shows it. */
export interface UserGroup {
  id: string;
  displayName: string;
}

/** SCIM's groups and their members: each change of a group, with its event, in one transaction. */
@SqlStore()
export class ScimGroupsStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
  ) {}

  async find(tenantId: string, id: string): Promise<ScimGroupEntity | null> {
    const row = await this.statements.first(SELECT_GROUP, [id, tenantId]);
    // MySQL pads trailing spaces even in a binary collation: only the exact id counts.
    return row && row.id === id ? toGroup(row) : null;
  }

  async findByName(tenantId: string, displayNameKey: string): Promise<ScimGroupEntity | null> {
    const row = await this.statements.first(SELECT_BY_NAME, [tenantId, displayNameKey]);
    return row ? toGroup(row) : null;
  }

  /** The ids of the group's members (SCIM user ids). */
  async memberIds(group: ScimGroupEntity): Promise<string[]> {
    return (await this.statements.rows(SELECT_MEMBER_IDS, [group.id, group.tenantId])).map((row) => row.id as string);
  }

  /**
   * The groups each of these SCIM users is in (a User's `groups`), by name: one statement for all
   * of them (a page of a list), on the index of the members' user ids.
   */
  async groupsOfUsers(tenantId: string, scimUserIds: string[]): Promise<Map<string, UserGroup[]>> {
    const groups = new Map(scimUserIds.map((id) => [id, [] as UserGroup[]]));
    if (!scimUserIds.length) return groups;
    const rows = await this.statements.rows(selectGroupsOfUsers(scimUserIds.length), [tenantId, ...scimUserIds]);
    for (const row of rows)
      groups.get(row.userId as string)?.push({ id: row.id as string, displayName: row.displayName as string });
    return groups;
  }

  /** A page of the organisation's groups that meet every condition, oldest first; and how many meet them. */
  async list(
    tenantId: string,
    conditions: EqConditions<GroupFilterAttribute>,
    startIndex: number,
    count: number,
  ): Promise<{ total: number; groups: ScimGroupEntity[] }> {
    const { total, rows } = await filteredPage(this.statements, GROUPS_LIST, tenantId, conditions, startIndex, count);
    return { total, groups: rows.map(toGroup) };
  }

  /** The group and its members; false when another group of the organisation holds its name. */
  async create(group: ScimGroupEntity, memberIds: string[], event: NewAuditEvent): Promise<boolean> {
    try {
      await this.writer.insert([
        [ScimGroupEntity, group],
        ...memberIds.map((id) => memberRow(group, id)),
        ...this.auditRows.of(event),
      ]);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /**
   * The group as `updated`, the members it gains and those it loses: 'gone' when the group is no
   * longer there, 'name_taken' when another group holds its new name.
   */
  async update(
    updated: ScimGroupEntity,
    added: string[],
    removed: string[],
    event: NewAuditEvent,
  ): Promise<'updated' | 'gone' | 'name_taken'> {
    const { id, tenantId } = updated;
    const leaving: Statement[] = removed.length ? [[deleteMembers(removed.length), [...removed, id, tenantId]]] : [];
    const change = [
      UPDATE_GROUP,
      [
        updated.displayName,
        updated.displayNameKey,
        updated.externalId,
        sqlTimestamp(updated.lastModified),
        id,
        tenantId,
      ],
    ] satisfies Statement;
    try {
      const written = await this.writer.insertIfAll(
        [...added.map((scimUserId) => memberRow(updated, scimUserId)), ...this.auditRows.of(event)],
        [change],
        leaving,
      );
      return written ? 'updated' : 'gone';
    } catch (error) {
      if (isUniqueViolation(error)) return 'name_taken';
      throw error;
    }
  }

  /** The group and its memberships; false when it was no longer there. */
  delete(group: ScimGroupEntity, event: NewAuditEvent): Promise<boolean> {
    return this.writer.insertIfAll(
      this.auditRows.of(event),
      [[DELETE_GROUP, [group.id, group.tenantId]]],
      [[DELETE_MEMBERS_OF_GROUP, [group.id, group.tenantId]]],
    );
  }
}
