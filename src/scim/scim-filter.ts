import { HttpStatus } from '@nestjs/common';
import { Filter, parse } from 'scim2-parse-filter';
import { EqConditions } from '../database/filtered-page';
import { ScimError } from './scim-errors';

const USER_SCHEMA_PREFIX = 'urn:ietf:params:scim:schemas:core:2.0:user:';
const GROUP_SCHEMA_PREFIX = 'urn:ietf:params:scim:schemas:core:2.0:group:';

/** The attributes a filter may compare, by resource type: each an `eq` on one column. */
export type UserFilterAttribute = 'userName' | 'externalId' | 'emails.value' | 'id';
export type GroupFilterAttribute = 'displayName' | 'externalId' | 'id';

/** A filter as the stores read it: every condition must hold (SCIM's `and`). */
export type { EqConditions };

const USER_ATTRIBUTES: Record<string, UserFilterAttribute> = {
  username: 'userName',
  externalid: 'externalId',
  'emails.value': 'emails.value',
  emails: 'emails.value',
  id: 'id',
};
const GROUP_ATTRIBUTES: Record<string, GroupFilterAttribute> = {
  displayname: 'displayName',
  externalid: 'externalId',
  id: 'id',
};

const invalid = (detail: string) => new ScimError(HttpStatus.BAD_REQUEST, detail, 'invalidFilter');

/**
 * Parses a SCIM filter (RFC 7644 section 3.4.2.2) with scim2-parse-filter and keeps the subset the
 * stores translate to SQL: `eq` on the listed attributes (names in any case, with or without the
 * schema's URN), joined by `and`. Anything else is 400 invalidFilter.
 */
function eqConditions<A extends string>(
  text: string,
  attributes: Record<string, A>,
  schemaPrefix: string,
): EqConditions<A> {
  if (text.length > 1_000) throw invalid('The filter is too long');
  let filter: Filter;
  try {
    filter = parse(text);
  } catch {
    throw invalid('The filter cannot be parsed');
  }
  const conditions: EqConditions<A> = [];
  const visit = (node: Filter): void => {
    if (node.op === 'and') {
      (node as { filters: Filter[] }).filters.forEach(visit);
      return;
    }
    if (node.op !== 'eq') throw invalid(`The operator "${node.op}" is not supported: only eq, joined by and`);
    const { attrPath, compValue } = node as { attrPath: string; compValue: unknown };
    let name = attrPath.toLowerCase();
    if (name.startsWith(schemaPrefix)) name = name.slice(schemaPrefix.length);
    const attribute = attributes[name];
    if (!attribute) throw invalid(`Filtering on "${attrPath}" is not supported`);
    if (typeof compValue !== 'string') throw invalid(`"${attrPath}" is compared with a string`);
    conditions.push({ attribute, value: compValue });
  };
  visit(filter);
  return conditions;
}

export const userFilter = (text: string) => eqConditions(text, USER_ATTRIBUTES, USER_SCHEMA_PREFIX);
export const groupFilter = (text: string) => eqConditions(text, GROUP_ATTRIBUTES, GROUP_SCHEMA_PREFIX);
