import { Injectable } from '@nestjs/common';
import { OrgCaller } from '../auth/caller';
import { Clock } from '../common/clock';
import { PageQueryDto, pageRequest } from '../common/paging';
import { IdentityStore } from '../identity/identity-store';
import { OPEN_STATUSES } from '../invitations/invitation';
import { InvitationsStore } from '../invitations/invitations.store';
import { GrantsStore } from '../permissions/grants.store';
import { ListPeopleResponse, toPersonResponse } from './dto/person.response';
import {
  cutPage,
  invitationGroupPage,
  invitationPerson,
  invitationsAfter,
  memberPerson,
  membersAfter,
  mergeInKeyOrder,
  PeoplePage,
  Person,
  readCursor,
} from './people-page';

/**
 * GET /api/org/people: the caller's organisation, its members and open invitations in one list (see
 * people-page). The guards confirmed the caller; unexpected failures are the route's @FailureResponse.
 */
@Injectable()
export class OrgPeopleService {
  constructor(
    private readonly identity: IdentityStore,
    private readonly invitations: InvitationsStore,
    private readonly clock: Clock,
    private readonly grants: GrantsStore,
  ) {}

  /**
   * A page costs one read of `limit + 1` rows from each source, whatever the tenant's size.
   * Invitation ids are their tokens: only owners and admins (by stored role) see them.
   */
  async list(caller: OrgCaller, query: PageQueryDto): Promise<ListPeopleResponse> {
    const request = pageRequest(query, 3);
    const showsInvitationIds = caller.role === 'owner' || caller.role === 'admin';
    const cursor = readCursor(request.after, showsInvitationIds);
    const tenantId = caller.tenantId;
    const now = this.clock.now();
    const take = request.limit + 1;
    const [members, invitations] = await Promise.all([
      this.identity.listTenantMembers(tenantId, membersAfter(cursor), take),
      this.invitations.listForTenant(tenantId, OPEN_STATUSES, now, invitationsAfter(cursor), take),
    ]);
    const people = mergeInKeyOrder(
      members.map(memberPerson),
      invitations.map((row) => invitationPerson(row, now)),
      take,
    );
    const page =
      cutPage(people, request.limit, showsInvitationIds) ??
      (await this.wholeInvitationGroup(tenantId, people, members.length > 0, now));
    const roles = await this.grants.rolesOfMembers(
      tenantId,
      page.items.filter((person) => person.kind === 'member').map((person) => person.id),
    );
    return {
      people: page.items.map((person) =>
        toPersonResponse(person, showsInvitationIds, person.kind === 'member' ? roles.get(person.id) : undefined),
      ),
      ...(page.nextCursor && { nextCursor: page.nextCursor }),
    };
  }

  /**
   * A member's page when more than `limit` open invitations go to one e-mail (`people`, all of
   * them so far): the rest of them, read a page at a time, so that the cursor holds no invitation id.
   */
  private async wholeInvitationGroup(
    tenantId: string,
    people: Person[],
    membersFollow: boolean,
    now: Date,
  ): Promise<PeoplePage> {
    const group = [...people];
    const email = group[0].email;
    for (;;) {
      const rows = await this.invitations.listForTenant(
        tenantId,
        OPEN_STATUSES,
        now,
        { email, id: group[group.length - 1].id },
        people.length,
      );
      const more = rows.filter((row) => row.email === email);
      group.push(...more.map((row) => invitationPerson(row, now)));
      if (more.length < rows.length) return invitationGroupPage(group, true);
      if (rows.length < people.length) return invitationGroupPage(group, membersFollow);
    }
  }
}
