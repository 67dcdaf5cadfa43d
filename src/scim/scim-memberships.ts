import { HttpStatus, Injectable } from '@nestjs/common';
import { AuditActor } from '../audit/audit-event';
import { AuditRecorder, auditRowDeletions } from '../audit/audit-recorder';
import { AppConfig } from '../config/app-config';
import { AtomicWriter, Insert, RequiredUpdate, Statement } from '../database/atomic-writer';
import { PreparedStatements } from '../database/prepared-statements';
import { MembershipGrantEntity } from '../database/entities';
import { IdentityStore, IdentityUser } from '../identity/identity-store';
import { localUserRows } from '../identity/local/local-identity-store';
import { JoiningService } from '../joining/joining.service';
import { MembershipGrantsRepository } from '../joining/membership-grants.repository';
import { MembershipGrantsWorker } from '../joining/membership-grants.worker';
import { SCIM_MESSAGES, ScimError } from './scim-errors';
import { scimEvents } from './scim-events';
import { ScimUsersStore } from './scim-users.store';

/**
 * Whom SCIM provisions: `new`, an address without an account (the local store's row is inserted
 * with the SCIM rows); `made`, its account made in the user pool for this write (prepared); or an
 * `existing` account.
 */
export type Person = { kind: 'new' | 'made'; id: string; email: string } | { kind: 'existing'; user: IdentityUser };

/**
 * How SCIM grants and ends memberships, on either identity store, as joining does: the local store's
 * users row changes in the transaction of the SCIM rows and their events; the user pool gets a
 * membership grant written in that transaction and sent right after it (MembershipGrantsWorker,
 * retried until the pool takes it), and an account made by AdminCreateUser (no message) when the
 * address has none.
 */
@Injectable()
export class ScimMemberships {
  constructor(
    private readonly config: AppConfig,
    private readonly identity: IdentityStore,
    private readonly writer: AtomicWriter,
    private readonly grants: MembershipGrantsWorker,
    private readonly audit: AuditRecorder,
    private readonly statements: PreparedStatements,
    private readonly pendingGrants: MembershipGrantsRepository,
    private readonly joining: JoiningService,
    private readonly users: ScimUsersStore,
  ) {}

  get pooled(): boolean {
    return this.config.identityStore === 'cognito';
  }

  /** The local store's address change, as a compare-and-set of the SCIM row's transaction; null on the pool. */
  localAddressChange(userId: string, address: string): RequiredUpdate | null {
    return this.pooled ? null : localUserRows.addressChanged(userId, address);
  }

  /**
   * One transaction: `inserts` and `required` with the membership of `person` in the tenant with
   * `role` (none when `role` is null: the account is made, in no organisation). False when a
   * compare-and-set found the rows changed. A unique index refusing a row throws (isUniqueViolation).
   * `undo`: what deletes the rows again when the pool's membership is refused; `deletes`: rows the
   * transaction deletes besides (a removal that the membership outweighs). An account `made` for
   * this write is deleted again when the rows do not go in.
   */
  async write(
    person: Person,
    tenantId: string,
    role: string | null,
    inserts: Insert[],
    required: RequiredUpdate[],
    now: Date,
    undo: Statement[] = [],
    deletes: Statement[] = [],
  ): Promise<boolean> {
    const id = person.kind === 'existing' ? person.user.id : person.id;
    if (!this.pooled) {
      if (person.kind === 'new') {
        inserts.push(localUserRows.created(person.id, person.email, role === null ? null : tenantId, role, now));
      } else if (
        person.kind === 'existing' &&
        role !== null &&
        (person.user.tenantId !== tenantId || person.user.role !== role)
      ) {
        // As read: a change of the row since (a join elsewhere, a role changed) makes this write lose.
        required.push(localUserRows.joined(person.user, tenantId, role));
      }
      return this.writer.insertIfAll(inserts, required, deletes);
    }
    const needsGrant =
      role !== null && !(person.kind === 'existing' && person.user.tenantId === tenantId && person.user.role === role);
    // Undoes the rows, their events and the grant, which no round has sent (this instance holds its claim).
    const undoRows = async () => {
      for (const [sql, parameters] of [
        ...undo,
        ...auditRowDeletions(inserts),
        this.pendingGrants.grantDeletion(id, tenantId),
      ])
        await this.statements.changes(sql, parameters).catch(() => 0);
    };
    // A new account on a pool that takes our id is made once the rows are in (the unique indexes
    // chose this request), before the grant is sent.
    const commit = async (rows: Insert[]) => {
      const written = await this.writer.insertIfAll(rows, required, deletes);
      if (written && person.kind === 'new') {
        try {
          await this.identity.createAccount(person.id, person.email);
        } catch (error) {
          await undoRows();
          throw error;
        }
      }
      // An adopted person who joined another organisation since they were read (a grant of a join
      // that the pool took and deleted before ours was written): ours is undone and refused. A join
      // after ours was written finds the grant on its way, or the pool's membership once it is sent.
      if (written && needsGrant && person.kind === 'existing' && person.user.tenantId !== tenantId) {
        const now = (await this.identity.findById(id))?.tenantId ?? null;
        if (now !== null && now !== tenantId) {
          await undoRows();
          return false;
        }
      }
      return written;
    };
    // An account made for this write goes again when the rows did not go in, unless a parallel
    // request adopted it (a pool that names its users holds one account per address).
    const forgetMade = async () => {
      if (person.kind === 'made' && !(await this.users.findByPerson(id)))
        await this.identity.deleteUser(id).catch(() => undefined);
    };
    try {
      const written = await this.writeWithGrant(person, id, tenantId, role, needsGrant, inserts, required, now, commit);
      if (!written) await forgetMade();
      return written;
    } catch (error) {
      await forgetMade();
      throw error;
    }
  }

  /**
   * On a user pool that names its users itself (one that signs in by e-mail) a new person's
   * account comes first, and the rows carry the pool's id for it; the pool refuses a second account
   * for the address (AccountExistsError). Elsewhere, the person as found.
   */
  async prepared(person: Person): Promise<Person> {
    if (!this.pooled || person.kind !== 'new' || !(await this.identity.namesNewAccounts())) return person;
    return { kind: 'made', id: await this.identity.createAccount(person.id, person.email), email: person.email };
  }

  /** The pool's side of write: the rows, with the membership grant when one is needed, sent after them. */
  private async writeWithGrant(
    person: Person,
    id: string,
    tenantId: string,
    role: string | null,
    needsGrant: boolean,
    inserts: Insert[],
    required: RequiredUpdate[],
    now: Date,
    commit: (rows: Insert[]) => Promise<boolean>,
  ): Promise<boolean> {
    if (!needsGrant) return commit(inserts);
    if (person.kind === 'existing') {
      // As a join judges it: the membership version first, then the membership; a grant written for
      // the person since (a join into another organisation) makes this write lose, and the reverse.
      const version = await this.pendingGrants.versionOf(id);
      const held = await this.joining.organisationOf(person.user);
      if (held !== null && held !== tenantId) return false;
      required.push(this.pendingGrants.versionUnchanged(id, version));
    }
    const grant = this.grants.claimedGrant(id, tenantId, role!, now);
    const sent = await this.grants.joinAndWrite(grant, () => commit([...inserts, [MembershipGrantEntity, grant]]));
    return sent !== null;
  }

  /**
   * Detaches the person from the tenant (the account stays), with `inserts`, `required` and
   * `deletes` (AtomicWriter.insertIfAll): on the local store in one transaction; on the pool, the
   * pool first (the org guard reads it on every request, so the next request is refused), then the
   * rows.
   */
  async detach(
    user: IdentityUser | null,
    tenantId: string,
    inserts: Insert[],
    required: RequiredUpdate[],
    deletes: Statement[] = [],
  ) {
    const member = user !== null && user.tenantId === tenantId;
    if (!this.pooled) {
      if (member) required.push(localUserRows.detached(user.id, tenantId));
      return this.writer.insertIfAll(inserts, required, deletes);
    }
    if (member) await this.identity.removeFromTenant(user.id);
    return this.writer.insertIfAll(inserts, required, deletes);
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
