/**
 * The Cognito store's reads of users: by Username (AdminGetUser), and by e-mail or the whole pool
 * (ListUsers, following its pages).
 */

import {
  AdminGetUserCommand,
  AdminGetUserCommandOutput,
  CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { comparableEmail, sameEmail } from '../../common/email-comparison';
import { IdentityUser, MAX_PAGE_SIZE } from '../identity-store';
import { attributeValue, COGNITO_ATTRIBUTES, fromListing, toIdentityUser } from './cognito-attributes';
import { COGNITO_USERNAME } from './cognito-pool';

/** Cognito's own limit: a ListUsers filter is at most 256 characters. */
const MAX_FILTER_LENGTH = 256;

const byId = (a: IdentityUser, b: IdentityUser) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const unboundedEqualsFilter = (attribute: string, value: string) =>
  `${attribute} = "${value.replace(/["\\]/g, '\\$&')}"`;
const fitsInFilter = (attribute: string, value: string) =>
  unboundedEqualsFilter(attribute, value).length <= MAX_FILTER_LENGTH;

/** A ListUsers filter for an exact attribute value: quotes and backslashes escaped. */
export function equalsFilter(attribute: string, value: string): string {
  const filter = unboundedEqualsFilter(attribute, value);
  if (filter.length > MAX_FILTER_LENGTH) {
    throw new Error(
      `The e-mail address is too long to search the user pool (a filter is at most ${MAX_FILTER_LENGTH} characters)`,
    );
  }
  return filter;
}

export class CognitoLookups {
  constructor(
    private readonly client: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async findById(id: string): Promise<IdentityUser | null> {
    const user = await this.getUser(id);
    return user && toIdentityUser(user.Username ?? id, user.UserAttributes);
  }

  /** Whether the user's `email_verified` attribute is "true"; false for a user the pool does not have. */
  async emailVerified(id: string): Promise<boolean> {
    const user = await this.getUser(id);
    return attributeValue(user?.UserAttributes, 'email_verified') === 'true';
  }

  /**
   * ListUsers with exact `email = "…"` filters, then sameEmail on what they find. Cognito's
   * filter is exact (and case-sensitive), so the address is searched in the spellings a stored,
   * lower-cased address can have: its comparison form (comparableEmail: every look-alike of an
   * address stored in that form, such as `kate@` for `ＫATE@` or `Kate@`), lower-cased, and as
   * given. A stored address that is not in its own comparison form (`straße@`, `ｋate@`) is
   * found only from its own spelling; finding it from any other would take a scan of the pool
   * per request (see the README).
   */
  async findByEmail(email: string): Promise<IdentityUser[]> {
    // Folding can make an address many times longer (`ﷺ` is 18 letters): a comparison form too
    // long for a filter is not searched, while the address as given must fit (equalsFilter).
    const folded = comparableEmail(email);
    const spellings = new Set([email.toLowerCase(), email]);
    if (fitsInFilter(COGNITO_ATTRIBUTES.email, folded)) spellings.add(folded);
    const found = new Map<string, IdentityUser>();
    for (const spelling of spellings) {
      for (const user of await this.listUsers(equalsFilter(COGNITO_ATTRIBUTES.email, spelling))) {
        if (sameEmail(user.email, email)) found.set(user.id, user);
      }
    }
    return [...found.values()].sort(byId);
  }

  /** Every user that matches the filter (the whole pool without one), following Cognito's pages. */
  async listUsers(filter?: string): Promise<IdentityUser[]> {
    const users: IdentityUser[] = [];
    let paginationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListUsersCommand({
          UserPoolId: this.userPoolId,
          ...(filter && { Filter: filter }),
          Limit: MAX_PAGE_SIZE,
          ...(paginationToken && { PaginationToken: paginationToken }),
        }),
      );
      users.push(...(page.Users ?? []).map(fromListing));
      paginationToken = page.PaginationToken;
    } while (paginationToken);
    return users;
  }

  /** AdminGetUser; null for a user the pool does not have. */
  private async getUser(id: string): Promise<AdminGetUserCommandOutput | null> {
    // A name that Cognito would refuse as a Username cannot belong to a user: not found, not a fault.
    if (!COGNITO_USERNAME.test(id)) return null;
    try {
      return await this.client.send(new AdminGetUserCommand({ UserPoolId: this.userPoolId, Username: id }));
    } catch (error) {
      if ((error as Error).name === 'UserNotFoundException') return null;
      throw error;
    }
  }
}
