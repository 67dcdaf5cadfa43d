import { PreparedStatements, Row } from './prepared-statements';

/** A filter's conditions, all of which a row meets: an attribute equal to a value. */
export type EqConditions<A extends string> = { attribute: A; value: string }[];

/** Each filter attribute's column, and how a value is made comparable with it (case-folded, say). */
export type FilterColumns<A extends string> = Record<A, [column: string, prepare: (value: string) => string]>;

/** A filtered list's query: one of the organisation's tables, its columns, and the filter's columns. */
export interface ListQuery<A extends string> {
  table: string;
  columns: string;
  filterColumns: FilterColumns<A>;
}

/**
 * A page of a filtered list, as SCIM's (RFC 7644 section 3.4.2): the organisation's rows that meet
 * every condition of the filter, oldest first, from `startIndex` (1-based), `count` of them; and how
 * many meet them. Two statements: the count, then the page (none when `count` is 0).
 */
export async function filteredPage<A extends string>(
  statements: PreparedStatements,
  query: ListQuery<A>,
  tenantId: string,
  conditions: EqConditions<A>,
  startIndex: number,
  count: number,
): Promise<{ total: number; rows: Row[] }> {
  const where = ['tenant_id = ?'];
  const parameters: unknown[] = [tenantId];
  for (const { attribute, value } of conditions) {
    const [column, prepare] = query.filterColumns[attribute];
    where.push(`${column} = ?`);
    parameters.push(prepare(value));
  }
  const clause = where.join(' AND ');
  const [{ total }] = await statements.rows(`SELECT COUNT(*) AS total FROM ${query.table} WHERE ${clause}`, parameters);
  if (count === 0) return { total: Number(total), rows: [] };
  // Small integers of ours: a LIMIT parameter is not portable.
  const page = `LIMIT ${Math.trunc(count)} OFFSET ${Math.trunc(startIndex - 1)}`;
  const rows = await statements.rows(
    `SELECT ${query.columns} FROM ${query.table} WHERE ${clause} ORDER BY created_at, id ${page}`,
    parameters,
  );
  return { total: Number(total), rows };
}
