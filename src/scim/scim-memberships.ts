import { SessionsService } from '../sessions/sessions.service';
import { HttpStatus, Injectable } from '@nestjs/common';
import { AuditActor } from '../audit/audit-event';
import { AuditRecorder } from '../audit/audit-recorder';
import { Clock } from '../common/clock';
import { Insert, RequiredUpdate, Statement } from '../database/atomic-writer';
import { AccountRows, IdentityStore, IdentityUser } from '../identity/identity-store';
import { JoiningService } from '../joining/joining.service';
import { Alongside } from '../joining/memberships.repository';
import { SCIM_MESSAGES, ScimError } from './scim-errors';
import { scimEvents } from './scim-events';
import { ScimUsersStore } from './scim-users.store';

/**
 * Whom SCIM provisions: `new`, an address without an account (the join makes it); `made`, its
 * account made in the user pool for this write (prepared); or an `existing` account.
 */
export type Person = { kind: 'new' | 'made'; id: string; email: string } | { kind: 'existing'; user: IdentityUser };

/**
 * The SCIM rows that a provisioning writes with the membership, in its transaction (the join's
 * Alongside): their events are among `inserts` already, rendered by ScimUsersStore.
 */
export type ScimRows = Omit<Alongside, 'events' | 'inserts'> & { inserts: Insert[] };

/** How a provisioning went: `emailInUse`, another account took the address meanwhile. */
export type ScimWrite = 'written' | 'refused' | 'emailInUse';

/**
 * How SCIM grants and ends memberships, on either identity store. A person SCIM makes a member
 * joins through JoiningService, as every way into an organisation does (docs/architecture.md);
 * what is SCIM's own is here: the account a pool makes before the rows, and the detaching.
 */
@Injectable()
export class ScimMemberships {
  /** The account's writes in the SCIM rows' transaction; null for a user pool, written before or after them. */
  private readonly accountRows: AccountRows | null;

  constructor(
    private readonly identity: IdentityStore,
    private readonly audit: AuditRecorder,
    private readonly joining: JoiningService,
    private readonly users: ScimUsersStore,
    private readonly clock: Clock,
    private readonly sessions: SessionsService,
  ) {
    this.accountRows = identity.accountRows();
  }

  /** The local store's address change, as a compare-and-set of the SCIM row's transaction; null on the pool. */
  localAddressChange(userId: string, address: string): RequiredUpdate | null {
    return this.accountRows?.addressChanged(userId, address) ?? null;
  }

  /**
   * `rows` with the membership of `person` in the tenant with `role` (a member of the tenant takes
   * it), through the one join; with `role` null, an account in no organisation beside the rows.
   * `refused` when a compare-and-set found the rows changed, or the person is in another
   * organisation now. A unique index refusing a row throws (isUniqueViolation). An account `made`
   * for this write is deleted again when the rows do not go in, unless a parallel request adopted
   * it (a pool that names its users holds one account per address).
   */
  async write(person: Person, tenantId: string, role: string | null, rows: ScimRows): Promise<ScimWrite> {
    try {
      const written =
        role === null ? await this.accountOnly(person, rows) : await this.join(person, tenantId, role, rows);
      if (written !== 'written') await this.forgetMade(person);
      return written;
    } catch (error) {
      await this.forgetMade(person);
      throw error;
    }
  }

  /**
   * The account that comes before the rows: on a user pool that names its users itself (one that
   * signs in by e-mail), the rows carry the pool's id for it, and the pool refuses a second account
   * for the address (AccountExistsError); an inactive person's, who joins nothing. Elsewhere the
   * person as found: a new account is made by the join.
   */
  async prepared(person: Person, active: boolean): Promise<Person> {
    if (this.accountRows || person.kind !== 'new') return person;
    if (active && !(await this.identity.namesNewAccounts())) return person;
    return { kind: 'made', id: await this.identity.createAccount(person.id, person.email), email: person.email };
  }

  private async join(person: Person, tenantId: string, role: string, rows: ScimRows): Promise<ScimWrite> {
    const member =
      person.kind === 'existing'
        ? { id: person.user.id, email: person.user.email }
        : { id: person.id, email: person.email };
    const joined = await this.joining.joinWithoutInvitation(member, tenantId, role, () => ({ ...rows, events: [] }), {
      account: person.kind === 'new' ? 'new' : 'existing',
      setsRole: true,
      once: true,
      mustExistInPool: false,
    });
    if (joined.joined) return 'written';
    return joined.emailInUse ? 'emailInUse' : 'refused';
  }

  /** An inactive person's rows: on the local store with the account's users row when it is new. */
  private async accountOnly(person: Person, rows: ScimRows): Promise<ScimWrite> {
    const inserts =
      person.kind === 'new' && this.accountRows
        ? [...rows.inserts, this.accountRows.created(person.id, person.email, null, null, this.clock.now())]
        : rows.inserts;
    return (await this.users.commit(inserts, rows.required, rows.deletes)) ? 'written' : 'refused';
  }

  private async forgetMade(person: Person): Promise<void> {
    if (person.kind === 'made' && !(await this.users.findByPerson(person.id)))
      await this.identity.deleteUser(person.id).catch(() => undefined);
  }

  /**
   * Detaches the person from the tenant (the account stays), with `inserts`, `required` and
   * `deletes` (ScimUsersStore.commit): on the local store in one transaction; on the pool, the
   * pool first (the org guard reads it on every request, so the next request is refused), then the
   * rows. Then the sessions that the service issued for the organisation end (`deprovisioned`).
   */
  async detach(
    user: IdentityUser | null,
    tenantId: string,
    inserts: Insert[],
    required: RequiredUpdate[],
    deletes: Statement[] = [],
  ) {
    const member = user !== null && user.tenantId === tenantId;
    if (this.accountRows) {
      if (member) required.push(this.accountRows.detached(user.id, tenantId));
    } else if (member) await this.identity.removeFromTenant(user.id);
    const written = await this.users.commit(inserts, required, deletes);
    if (written && user) await this.sessions.endPersonSessions(user, tenantId, 'deprovisioned', null);
    return written;
  }

  /**
   * The last-owner guard: refuses (409 mutability, audited) a change that would leave the
   * organisation without an owner. `losing`: the owners among those the change demotes or detaches;
   * `gaining`: the members it makes owners.
   */
  async refuseLosingLastOwner(
    tenantId: string,
    actor: AuditActor,
    losing: IdentityUser[],
    gaining: number,
    attempted: string,
  ): Promise<void> {
    const owners = losing.filter((user) => user.role === 'owner' && user.tenantId === tenantId);
    if (!owners.length) return;
    const counts = await this.identity.countTenantMembers(tenantId);
    if (counts.owner > 0 && counts.owner - owners.length + gaining <= 0) {
      for (const owner of owners)
        await this.audit.recordAfterIdentityChange(scimEvents.changeRefused(tenantId, actor, owner, attempted));
      throw new ScimError(HttpStatus.CONFLICT, SCIM_MESSAGES.lastOwner, 'mutability');
    }
  }
}
