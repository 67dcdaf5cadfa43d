import { HttpStatus } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { ApiError } from './api-error';
import { ApiErrorResponse } from './openapi';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 100;
export const PAGING_ERRORS = {
  invalidLimit: `Invalid limit. Must be an integer from 1 to ${MAX_PAGE_LIMIT}`,
  invalidCursor: 'Invalid cursor',
} as const;

/** A cursor is base64url of a JSON array of strings; bounded so that a decode costs nothing. */
const MAX_CURSOR_LENGTH = 2_048;

/**
 * `?limit=&cursor=` of the organisation's list routes (issue 12). Each is at most once: a
 * repeated parameter arrives as an array and fails the pattern.
 */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT, type: 'integer' })
  @Matches(/^(?:[1-9]\d?|100)$/, { message: PAGING_ERRORS.invalidLimit })
  @IsOptional()
  limit?: string;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page, as it was' })
  @Matches(new RegExp(`^[A-Za-z0-9_-]{1,${MAX_CURSOR_LENGTH}}$`), { message: PAGING_ERRORS.invalidCursor })
  @IsOptional()
  cursor?: string;
}

/** The 400s of every list that pages with PageQueryDto, for the API document. */
export const ApiPagingErrors = () =>
  ApiErrorResponse(400, 'Bad `limit` or `cursor`', [
    { error: PAGING_ERRORS.invalidLimit },
    { error: PAGING_ERRORS.invalidCursor },
  ]);

/**
 * Keyset paging: rows are ordered by a key (e-mail, then id, for every list) and a page starts
 * strictly after the last key of the previous one, so that rows added or removed meanwhile never
 * make a row that stayed put repeat or go missing. The key is the cursor, opaque to clients.
 */
export interface PageRequest {
  limit: number;
  /** The key of the last row of the previous page; absent for the first page. */
  after?: string[];
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export const encodeCursor = (key: string[]): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/** The page a validated PageQueryDto asks for; a cursor that is not ours (or not for a key of `keyLength`) is 400. */
export function pageRequest(query: PageQueryDto, keyLength: number): PageRequest {
  const limit = query.limit === undefined ? DEFAULT_PAGE_LIMIT : Number(query.limit);
  if (query.cursor === undefined) return { limit };
  return { limit, after: decodeCursor(query.cursor, keyLength) };
}

/** The key in a cursor that encodeCursor made for a key of `keyLength` parts; any other cursor is 400. */
export function decodeCursor(cursor: string, keyLength: number): string[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new ApiError(HttpStatus.BAD_REQUEST, PAGING_ERRORS.invalidCursor);
  }
  const wellFormed =
    Array.isArray(key) &&
    key.length === keyLength &&
    key.every((part) => typeof part === 'string') &&
    encodeCursor(key) === cursor;
  if (!wellFormed) throw new ApiError(HttpStatus.BAD_REQUEST, PAGING_ERRORS.invalidCursor);
  return key as string[];
}

/**
 * A page from up to `limit + 1` rows in key order after `request.after`: the extra row only says
 * that another page follows.
 */
export function toPage<T>(rows: T[], request: PageRequest, keyOf: (row: T) => string[]): Page<T> {
  const items = rows.slice(0, request.limit);
  if (rows.length <= request.limit) return { items };
  return { items, nextCursor: encodeCursor(keyOf(items[items.length - 1])) };
}

/**
 * Orders two keys part by part in code-point order: the order of UTF-8 bytes, so of SQLite's
 * BINARY and MySQL's utf8mb4_bin, which every list's index follows (migration
 * OrderEmailsByCodePoint); also how stores without an ORDER BY sort (Cognito).
 */
export function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) {
    const order = compareCodePoints(a[i], b[i]);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * JavaScript's `<` compares UTF-16 code units, which puts U+10000 and above (surrogate pairs)
 * before U+E000–U+FFFF: at the first unit that differs, lift surrogates above that range.
 */
function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return inCodePointOrder(x) - inCodePointOrder(y);
  }
  return a.length - b.length;
}

const inCodePointOrder = (unit: number) =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;
