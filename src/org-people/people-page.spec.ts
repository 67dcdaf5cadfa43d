import { apiFailure } from '../../test/support/api-failure';
import { PAGING_ERRORS } from '../../test/support/spec-bodies';
import { compareKeys, encodeCursor } from '../common/paging';
import {
  cutPage,
  invitationGroupPage,
  invitationsAfter,
  membersAfter,
  mergeInKeyOrder,
  Person,
  personKey,
  readCursor,
} from './people-page';

const member = (email: string, id = `u-${email}`): Person => ({
  kind: 'member',
  id,
  email,
  role: 'member',
  status: 'active',
});
const invitation = (email: string, id = `i-${email}`): Person => ({
  kind: 'invitation',
  id,
  email,
  role: 'member',
  status: 'pending',
  expiresAt: new Date('2026-03-08T10:00:00.000Z'),
});
const ids = (people: Person[]) => people.map((person) => person.id);

describe('people-page', () => {
  describe('mergeInKeyOrder', () => {
    it('orders by e-mail, then kind (invitation before member), then id, and keeps the first `take`', () => {
      const members = [member('a@x'), member('c@x')];
      const invitations = [
        invitation('a@x', 'i-2'),
        invitation('b@x'),
        invitation('c@x', 'i-1'),
        invitation('c@x', 'i-3'),
      ];
      expect(ids(mergeInKeyOrder(members, invitations, 10))).toEqual(['i-2', 'u-a@x', 'i-b@x', 'i-1', 'i-3', 'u-c@x']);
      expect(ids(mergeInKeyOrder(members, invitations, 3))).toEqual(['i-2', 'u-a@x', 'i-b@x']);
    });

    it('compares e-mails by code point, as the indexes order them: "." < "_" < letters < accents, case apart', () => {
      const emails = ['é@x', 'e@x', 'a_b@x', 'a.b@x', 'ab@x', 'Zed@x', 'zed@x'];
      const sorted = [...emails].sort((a, b) => compareKeys([a], [b]));
      expect(sorted).toEqual(['Zed@x', 'a.b@x', 'a_b@x', 'ab@x', 'e@x', 'zed@x', 'é@x']);
      const members = sorted.filter((_, i) => i % 2 === 0).map((email) => member(email));
      const invitations = sorted.filter((_, i) => i % 2 === 1).map((email) => invitation(email));
      expect(mergeInKeyOrder(members, invitations, 10).map((person) => person.email)).toEqual(sorted);
    });

    it('takes from one list when the other is empty', () => {
      expect(ids(mergeInKeyOrder([], [invitation('a@x')], 5))).toEqual(['i-a@x']);
      expect(ids(mergeInKeyOrder([member('a@x')], [], 5))).toEqual(['u-a@x']);
    });
  });

  describe('readCursor', () => {
    it('reads [email, kind, id]; an owner or admin may give an invitation key', () => {
      expect(readCursor(['a@x', 'invitation', 'i-1'], true)).toEqual({ email: 'a@x', kind: 'invitation', id: 'i-1' });
      expect(readCursor(['a@x', 'member', ''], false)).toEqual({ email: 'a@x', kind: 'member', id: '' });
      expect(readCursor(undefined, false)).toBeUndefined();
    });

    it.each([
      ['a member gives an invitation key (it could find a token by bisecting)', ['a@x', 'invitation', 'i-1'], false],
      ['the kind is unknown', ['a@x', 'user', 'u-1'], true],
    ])('400, an invalid cursor, when %s', async (_, key, showsInvitationIds) => {
      expect(
        await apiFailure(Promise.resolve().then(() => readCursor(key as string[], showsInvitationIds as boolean))),
      ).toEqual({
        status: 400,
        body: PAGING_ERRORS.invalidCursor,
      });
    });
  });

  describe('where each source resumes', () => {
    it('after an invitation key: members from that e-mail on, invitations after that id', () => {
      const cursor = { email: 'a@x', kind: 'invitation' as const, id: 'i-1' };
      expect(membersAfter(cursor)).toEqual({ email: 'a@x', id: '' });
      expect(invitationsAfter(cursor)).toEqual({ email: 'a@x', id: 'i-1' });
    });

    it('after a member key: members after that id, invitations past that e-mail', () => {
      const cursor = { email: 'a@x', kind: 'member' as const, id: 'u-1' };
      expect(membersAfter(cursor)).toEqual({ email: 'a@x', id: 'u-1' });
      expect(invitationsAfter(cursor)).toEqual({ email: 'a@x' });
      expect(membersAfter(undefined)).toBeUndefined();
      expect(invitationsAfter(undefined)).toBeUndefined();
    });
  });

  describe('cutPage', () => {
    const people = [
      member('a@x'),
      invitation('b@x', 'i-1'),
      invitation('b@x', 'i-2'),
      member('b@x'),
      invitation('c@x'),
    ];

    it('no cursor when the rows fit in the page', () => {
      expect(cutPage(people, 5, true)).toEqual({ items: people });
    });

    it("an owner or admin gets the last row's key as the cursor, an invitation's too", () => {
      expect(cutPage(people, 2, true)).toEqual({
        items: people.slice(0, 2),
        nextCursor: encodeCursor(personKey(people[1])),
      });
    });

    it("a member's page never ends between two invitations to one e-mail: it ends before them", () => {
      expect(cutPage(people, 2, false)).toEqual({
        items: people.slice(0, 1),
        nextCursor: encodeCursor(['a@x', 'member', 'u-a@x']),
      });
    });

    it("a member's page that ends after every invitation to an e-mail gets a cursor past them, without an id", () => {
      expect(cutPage(people, 3, false)).toEqual({
        items: people.slice(0, 3),
        nextCursor: encodeCursor(['b@x', 'member', '']),
      });
    });

    it('null for a member when the whole page is invitations to one e-mail with more to come', () => {
      expect(cutPage(people.slice(1), 1, false)).toBeNull();
    });

    it('invitationGroupPage: the whole group, with a cursor past it when rows follow', () => {
      const group = people.slice(1, 3);
      expect(invitationGroupPage(group, true)).toEqual({
        items: group,
        nextCursor: encodeCursor(['b@x', 'member', '']),
      });
      expect(invitationGroupPage(group, false)).toEqual({ items: group });
    });
  });
});
