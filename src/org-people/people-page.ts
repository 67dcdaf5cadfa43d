import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { compareKeys, encodeCursor, PAGING_ERRORS } from '../common/paging';
import { InvitationEntity } from '../database/entities';
import { IdentityUser, MemberKey } from '../identity/identity-store';
import { effectiveStatus } from '../invitations/invitation';

/**
 * GET /api/org/people (issue 12 route 6): members (from the identity store) and open invitations
 * (from the database) in one list, paged by one keyset over both. The list's key is
 * [e-mail, kind, id] in compareKeys order (code points), the order that both sources read from
 * their indexes, so that the first `limit + 1` rows of each after a cursor, merged, are the
 * first `limit + 1` rows of the list after it.
 */

/** In list order: for one e-mail, its invitations come before its member. */
export const PERSON_KINDS = ['invitation', 'member'] as const;
export type PersonKind = (typeof PERSON_KINDS)[number];
export const PERSON_STATUSES = ['active', 'pending', 'expired'] as const;

export interface Person {
  kind: PersonKind;
  id: string;
  email: string;
  role: string | null;
  status: string;
  /** Invitations only. */
  expiresAt?: Date;
}

export interface PeoplePage {
  items: Person[];
  nextCursor?: string;
}

export const memberPerson = (user: IdentityUser): Person => ({
  kind: 'member',
  id: user.id,
  email: user.email,
  role: user.role,
  status: 'active',
});

export const invitationPerson = (invitation: InvitationEntity, now: Date): Person => ({
  kind: 'invitation',
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  status: effectiveStatus(invitation, now),
  expiresAt: invitation.expiresAt,
});

export const personKey = (person: Pick<Person, 'email' | 'kind' | 'id'>): string[] => [
  person.email,
  person.kind,
  person.id,
];

/**
 * Where a page starts: strictly after this key. A `member` key with an empty id sits after every
 * invitation to its e-mail and before its member: the cursor that members get (see cutPage).
 */
export interface PeopleCursor {
  email: string;
  kind: PersonKind;
  id: string;
}

/**
 * The decoded cursor (pageRequest's `after`). Only owners and admins may give an invitation key:
 * a member could otherwise find an invitation's id, its token, by bisecting with made-up cursors.
 */
export function readCursor(after: string[] | undefined, showsInvitationIds: boolean): PeopleCursor | undefined {
  if (!after) return undefined;
  const [email, kind, id] = after;
  if (kind !== 'member' && !(kind === 'invitation' && showsInvitationIds)) {
    throw new ApiError(HttpStatus.BAD_REQUEST, PAGING_ERRORS.invalidCursor);
  }
  return { email, kind, id };
}

/** Where the members resume: after an invitation key, at the first member of its e-mail. */
export function membersAfter(cursor: PeopleCursor | undefined): MemberKey | undefined {
  return cursor && { email: cursor.email, id: cursor.kind === 'member' ? cursor.id : '' };
}

/** Where the invitations resume: after a member key, past every invitation to its e-mail. */
export function invitationsAfter(cursor: PeopleCursor | undefined): { email: string; id?: string } | undefined {
  return cursor && (cursor.kind === 'invitation' ? { email: cursor.email, id: cursor.id } : { email: cursor.email });
}

/** Two lists, each in key order, as one in key order; the first `take` rows. */
export function mergeInKeyOrder(members: Person[], invitations: Person[], take: number): Person[] {
  const merged: Person[] = [];
  let m = 0;
  let i = 0;
  while (merged.length < take && (m < members.length || i < invitations.length)) {
    const takeMember =
      i === invitations.length ||
      (m < members.length && compareKeys(personKey(members[m]), personKey(invitations[i])) < 0);
    merged.push(takeMember ? members[m++] : invitations[i++]);
  }
  return merged;
}

/**
 * The page from the first `limit + 1` rows of the list after the cursor. A member's cursor never
 * holds an invitation id: the page then ends after every open invitation to an e-mail, or before
 * them. Null when that cannot be done, the whole page being invitations to one e-mail with more
 * to come: see invitationGroupPage.
 */
export function cutPage(people: Person[], limit: number, showsInvitationIds: boolean): PeoplePage | null {
  if (people.length <= limit) return { items: people };
  let end = limit;
  const last = people[end - 1];
  if (!showsInvitationIds && isInvitationTo(people[end], last)) {
    while (end > 0 && isInvitationTo(people[end - 1], last)) end--;
    if (end === 0) return null;
  }
  const items = people.slice(0, end);
  return { items, nextCursor: encodeCursor(cursorAfter(items[end - 1], showsInvitationIds)) };
}

/** A member's page that is every open invitation to one e-mail (more than `limit`); `more` when rows follow them. */
export function invitationGroupPage(group: Person[], more: boolean): PeoplePage {
  return { items: group, ...(more && { nextCursor: encodeCursor(pastInvitationsTo(group[0].email)) }) };
}

const isInvitationTo = (person: Person, like: Person) =>
  like.kind === 'invitation' && person.kind === 'invitation' && person.email === like.email;

const pastInvitationsTo = (email: string) => [email, 'member', ''];

const cursorAfter = (person: Person, showsInvitationIds: boolean) =>
  person.kind === 'invitation' && !showsInvitationIds ? pastInvitationsTo(person.email) : personKey(person);
