/**
 * The super-admin listing of the Cognito store: a page of the super-admin group, with the API's
 * page token mapped onto Cognito's.
 */

import { Logger } from '@nestjs/common';
import { InvalidPageTokenError, MAX_PAGE_SIZE, SUPER_ADMIN_ROLE, UserPage } from '../identity-store';
import { COGNITO_ATTRIBUTES, fromListing } from './cognito-attributes';
import { CognitoGroups } from './cognito-groups';

/**
 * The API's page token for the super-admin listing: base64url of `{"n": <Cognito NextToken>, "s": <skip>}`.
 * `n` is the Cognito page to read; `s` is how many users of that page were already returned, for
 * a backend that answers with more users than `Limit` asked for (cognito-local ignores `Limit`).
 * Against Cognito itself `s` is never set.
 */
interface PageCursor {
  n?: string;
  s?: number;
}

const MAX_TOKEN_LENGTH = 4096;

export function encodePageToken(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

export function decodePageToken(token: string): PageCursor {
  if (token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) throw new InvalidPageTokenError();
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidPageTokenError();
  }
  if (typeof cursor !== 'object' || cursor === null || Array.isArray(cursor)) throw new InvalidPageTokenError();
  const { n, s, ...rest } = cursor as Record<string, unknown>;
  const validNext = n === undefined || (typeof n === 'string' && /^\S+$/.test(n));
  const validSkip = s === undefined || (Number.isSafeInteger(s) && (s as number) > 0);
  if (Object.keys(rest).length || !validNext || !validSkip || (n === undefined && s === undefined)) {
    throw new InvalidPageTokenError();
  }
  const decoded: PageCursor = {
    ...(n !== undefined && { n: n as string }),
    ...(s !== undefined && { s: s as number }),
  };
  // One spelling per cursor, so that a token is either ours, unchanged, or refused.
  if (encodePageToken(decoded) !== token) throw new InvalidPageTokenError();
  return decoded;
}

export class CognitoSuperAdminListing {
  constructor(
    private readonly groups: CognitoGroups,
    private readonly superAdminGroup: string,
    private readonly logger: Logger,
  ) {}

  /** ListUsersInGroup on the super-admin group, with the API's limit and token mapped onto Cognito's. */
  async page({ limit, token }: { limit: number; token?: string }): Promise<UserPage> {
    const pageSize = Math.min(Math.max(Math.trunc(limit) || 1, 1), MAX_PAGE_SIZE);
    const cursor = token === undefined ? {} : decodePageToken(token);
    const skip = cursor.s ?? 0;
    let page;
    try {
      page = await this.groups.page(this.superAdminGroup, pageSize, cursor.n);
    } catch (error) {
      // Cognito refuses a NextToken it did not issue as a bad parameter: the caller's token is bad.
      if (cursor.n && (error as Error).name === 'InvalidParameterException') throw new InvalidPageTokenError();
      throw error;
    }
    const members = page.Users ?? [];
    const taken = members.slice(skip, skip + pageSize);
    let next: PageCursor | undefined;
    if (skip + pageSize < members.length) next = { ...(cursor.n && { n: cursor.n }), s: skip + pageSize };
    else if (page.NextToken) next = { n: page.NextToken };

    const users = taken.map(fromListing).filter((user) => {
      if (user.platformRole === SUPER_ADMIN_ROLE) return true;
      this.logger.warn(
        `User ${user.id} is in group ${this.superAdminGroup} without ${COGNITO_ATTRIBUTES.platformRole}=${SUPER_ADMIN_ROLE}: not listed`,
      );
      return false;
    });
    return next ? { users, nextToken: encodePageToken(next) } : { users };
  }
}
