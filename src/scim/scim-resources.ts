import { HttpStatus } from '@nestjs/common';
import { ScimGroupEntity, ScimUserEntity } from '../database/entities';
import { ScimError } from './scim-errors';
import type { UserGroup } from './scim-groups.store';
import { ENTERPRISE_USER_SCHEMA, Resource } from './scim-patch';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_BASE_PATH = '/scim/v2';

/** The stored attributes of a resource, as JSON: TEXT holds 64 KB on MySQL. */
const MAX_ATTRIBUTES_LENGTH = 60_000;
const MAX_USER_NAME_LENGTH = 320;
const MAX_EXTERNAL_ID_LENGTH = 255;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
/** What a client may send but the service keeps itself, or never keeps (a password). */
const NOT_STORED = ['schemas', 'id', 'meta', 'groups', 'password', 'username', 'externalid', 'active'];

const invalidValue = (detail: string) => new ScimError(HttpStatus.BAD_REQUEST, detail, 'invalidValue');
const isObject = (value: unknown): value is Resource =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * scim_users.active: 1 (true), 0 (false), or UNASSIGNED, which a PATCH that removes `active` (or
 * sets it to null) leaves (RFC 7644 section 3.5.2.2). Only 1 is active: an unassigned `active`
 * detaches the person as false does, and is not returned.
 */
export const UNASSIGNED = -1;
export const activeColumn = (active: boolean | null): number => (active === null ? UNASSIGNED : active ? 1 : 0);
const activeOf = (row: ScimUserEntity): boolean | null => (row.active === UNASSIGNED ? null : row.active === 1);

/** RFC 7643's boolean, and Entra's strings "True" and "False" in any case; a create's default is true. */
export function readActive(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw invalidValue('"active" is a boolean');
}

function readExternalId(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > MAX_EXTERNAL_ID_LENGTH)
    throw invalidValue(`"externalId" is a string of at most ${MAX_EXTERNAL_ID_LENGTH} characters`);
  return value;
}

function attributesOf(body: Resource): Resource {
  const attributes = Object.fromEntries(
    Object.entries(body).filter(([key]) => !NOT_STORED.includes(key.toLowerCase())),
  );
  if (JSON.stringify(attributes).length > MAX_ATTRIBUTES_LENGTH)
    throw invalidValue(`The resource's attributes take at most ${MAX_ATTRIBUTES_LENGTH} characters as JSON`);
  return attributes;
}

/** A User as a request gives it (POST, PUT, or after a PATCH). */
export interface UserInput {
  userName: string;
  userNameKey: string;
  externalId: string | null;
  /** null: unassigned (removed by a PATCH), which is not active. */
  active: boolean | null;
  /** The person's address: the primary e-mail, else the first, else userName. */
  address: string;
  attributes: Resource;
}

const valueOfKey = (object: Resource, name: string): unknown =>
  object[Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name];

/** A User of a POST or PUT: without `active`, or with null, it is true, as a new resource's. */
export function readUser(body: unknown): UserInput & { active: boolean } {
  if (!isObject(body)) throw new ScimError(HttpStatus.BAD_REQUEST, 'The body is a User resource', 'invalidSyntax');
  const userName = valueOfKey(body, 'userName');
  if (typeof userName !== 'string' || userName.trim() === '' || userName.length > MAX_USER_NAME_LENGTH)
    throw invalidValue(`"userName" is required: a string of at most ${MAX_USER_NAME_LENGTH} characters`);
  const emails = valueOfKey(body, 'emails');
  if (emails !== undefined && emails !== null && !Array.isArray(emails)) throw invalidValue('"emails" is an array');
  const values = ((emails as unknown[] | undefined) ?? []).filter(isObject);
  const primary =
    values.find((email) => email.primary === true || String(email.primary).toLowerCase() === 'true') ?? values[0];
  const address = typeof primary?.value === 'string' && primary.value.trim() ? primary.value.trim() : userName.trim();
  if (!EMAIL.test(address) || address.length > MAX_USER_NAME_LENGTH)
    throw invalidValue('"userName", or the primary e-mail, must be an e-mail address');
  return {
    userName: userName.trim(),
    userNameKey: userName.trim().toLowerCase(),
    externalId: readExternalId(valueOfKey(body, 'externalId')),
    active: readActive(valueOfKey(body, 'active')),
    address,
    attributes: attributesOf(body),
  };
}

/**
 * A User after a PATCH. `userName`, required, cannot be removed (400 mutability). An `active` removed or set to null is unassigned (RFC 7644 section
 * 3.5.2.2; RFC 7643 section 2.5): never read as true, the default of a create, which would bring a
 * detached person back.
 */
export function readPatchedUser(patched: Resource): UserInput {
  const userName = valueOfKey(patched, 'userName');
  if (userName === undefined || userName === null)
    throw new ScimError(HttpStatus.BAD_REQUEST, '"userName" is required: it cannot be removed', 'mutability');
  const active = valueOfKey(patched, 'active');
  const input = readUser(patched);
  return active === undefined || active === null ? { ...input, active: null } : input;
}

/** The resource as PATCH starts from it: what is stored, without id and meta. */
export function userAsStored(row: ScimUserEntity): Resource {
  return {
    userName: row.userName,
    ...(row.externalId !== null && { externalId: row.externalId }),
    ...(JSON.parse(row.attributes) as Resource),
    ...(activeOf(row) !== null && { active: activeOf(row) }),
  };
}

/** A User as answered, with the groups it is in when they were read (a User in none has no `groups`). */
export function toUserResource(row: ScimUserEntity, base: string, groups: UserGroup[] = []): Resource {
  const attributes = JSON.parse(row.attributes) as Resource;
  const schemas = [USER_SCHEMA, ...(isObject(attributes[ENTERPRISE_USER_SCHEMA]) ? [ENTERPRISE_USER_SCHEMA] : [])];
  return {
    schemas,
    id: row.id,
    ...(row.externalId !== null && { externalId: row.externalId }),
    userName: row.userName,
    ...attributes,
    ...(activeOf(row) !== null && { active: activeOf(row) }),
    ...(groups.length && {
      groups: groups.map((group) => ({
        value: group.id,
        $ref: `${base}${SCIM_BASE_PATH}/Groups/${group.id}`,
        display: group.displayName,
        type: 'direct',
      })),
    }),
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.lastModified.toISOString(),
      location: `${base}${SCIM_BASE_PATH}/Users/${row.id}`,
    },
  };
}

/** A Group as a request gives it. */
export interface GroupInput {
  displayName: string;
  displayNameKey: string;
  externalId: string | null;
  /** The members' SCIM user ids, without repeats. */
  members: string[];
}

export const MAX_GROUP_MEMBERS = 10_000;

export function readGroup(body: unknown): GroupInput {
  if (!isObject(body)) throw new ScimError(HttpStatus.BAD_REQUEST, 'The body is a Group resource', 'invalidSyntax');
  const displayName = valueOfKey(body, 'displayName');
  if (typeof displayName !== 'string' || displayName.trim() === '' || displayName.length > 255)
    throw invalidValue('"displayName" is required: a string of at most 255 characters');
  const members = valueOfKey(body, 'members') ?? [];
  if (!Array.isArray(members)) throw invalidValue('"members" is an array');
  if (members.length > MAX_GROUP_MEMBERS) throw invalidValue(`A group has at most ${MAX_GROUP_MEMBERS} members`);
  const ids = members.map((member) => {
    const value = isObject(member) ? member.value : undefined;
    if (typeof value !== 'string' || value === '') throw invalidValue('Each member has a "value": a User id');
    return value;
  });
  return {
    displayName: displayName.trim(),
    displayNameKey: displayName.trim().toLowerCase(),
    externalId: readExternalId(valueOfKey(body, 'externalId')),
    members: [...new Set(ids)],
  };
}

export function groupAsStored(group: ScimGroupEntity, members: string[]): Resource {
  return {
    displayName: group.displayName,
    ...(group.externalId !== null && { externalId: group.externalId }),
    members: members.map((value) => ({ value })),
  };
}

export function toGroupResource(
  group: ScimGroupEntity,
  members: { id: string; userName: string }[] | null,
  base: string,
): Resource {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId !== null && { externalId: group.externalId }),
    displayName: group.displayName,
    ...(members && {
      members: members.map((member) => ({
        value: member.id,
        display: member.userName,
        $ref: `${base}${SCIM_BASE_PATH}/Users/${member.id}`,
      })),
    }),
    meta: {
      resourceType: 'Group',
      created: group.createdAt.toISOString(),
      lastModified: group.lastModified.toISOString(),
      location: `${base}${SCIM_BASE_PATH}/Groups/${group.id}`,
    },
  };
}

export interface ListResponse {
  schemas: [typeof LIST_RESPONSE_SCHEMA];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: Resource[];
}

export const MAX_COUNT = 100;

/** startIndex (1-based, below 1 is 1) and count (0 to MAX_COUNT, default MAX_COUNT) of a list. */
export function listWindow(query: { startIndex?: unknown; count?: unknown }): { startIndex: number; count: number } {
  const number = (value: unknown, fallback: number) => {
    if (value === undefined || value === '') return fallback;
    const parsed = Number(value);
    if (typeof value !== 'string' || !/^-?\d{1,15}$/.test(value.trim()) || !Number.isSafeInteger(parsed))
      throw invalidValue('startIndex and count are integers');
    return parsed;
  };
  return {
    startIndex: Math.max(1, number(query.startIndex, 1)),
    count: Math.min(MAX_COUNT, Math.max(0, number(query.count, MAX_COUNT))),
  };
}

export const listResponse = (total: number, startIndex: number, resources: Resource[]): ListResponse => ({
  schemas: [LIST_RESPONSE_SCHEMA],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
