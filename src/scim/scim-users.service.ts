import { HttpStatus, Injectable } from '@nestjs/common';
import { NewAuditEvent } from '../audit/audit-event';
import { Clock } from '../common/clock';
import { sameEmail } from '../common/email-comparison';
import { IdGenerator } from '../common/id-generator';
import { RequiredUpdate } from '../database/atomic-writer';
import { ScimUserEntity } from '../database/entities';
import { JoiningService } from '../joining/joining.service';
import { MembershipRemovalsStore } from '../memberships/membership-removals.store';
import { GrantsStore } from '../permissions/grants.store';
import { AccountExistsError, IdentityStore, IdentityUser } from '../identity/identity-store';
import { SCIM_MESSAGES, ScimError } from './scim-errors';
import { scimEvents, tokenActor } from './scim-events';
import { userFilter } from './scim-filter';
import { isUniqueViolation } from '../database/unique-violation';
import { Person, ScimMemberships, ScimWrite } from './scim-memberships';
import { applyPatch, patchOperations, Resource } from './scim-patch';
import {
  activeColumn,
  ListResponse,
  listResponse,
  listWindow,
  readPatchedUser,
  readUser,
  toUserResource,
  USER_SCHEMA,
  UserInput,
  userAsStored,
} from './scim-resources';
import { ScimGroupsStore } from './scim-groups.store';
import { ScimOwnerLock } from './scim-owner-lock';
import { Projection } from './scim-projection';
import { ScimContext } from './scim-token.guard';
import { ScimUsersStore } from './scim-users.store';

const userNameTaken = () => new ScimError(HttpStatus.CONFLICT, SCIM_MESSAGES.userNameTaken, 'uniqueness');
const addressTaken = () => new ScimError(HttpStatus.CONFLICT, SCIM_MESSAGES.addressTaken, 'uniqueness');
const notFound = () => new ScimError(HttpStatus.NOT_FOUND, SCIM_MESSAGES.userNotFound);
const changedMeanwhile = () =>
  new ScimError(HttpStatus.CONFLICT, 'The user changed while this request ran: read it and try again');

/** Attributes the client cannot target in a PATCH. */
const READ_ONLY = ['id', 'meta', 'groups'];

/** A User with every sub-attribute of `groups`: what a projection shows of it says whether `groups` is read. */
const WITH_GROUPS: Resource = { schemas: [USER_SCHEMA], groups: [{ value: '', $ref: '', display: '', type: '' }] };

/** A later instant than `before`, so that every write moves lastModified. */
const after = (before: Date, now: Date) => (now.getTime() > before.getTime() ? now : new Date(before.getTime() + 1));

/**
 * SCIM Users (RFC 7643 section 4.1, RFC 7644 section 3): one resource per member of the
 * organisation that its identity provider manages (docs/scim.md, "Users").
 */
@Injectable()
export class ScimUsersService {
  constructor(
    private readonly store: ScimUsersStore,
    private readonly identity: IdentityStore,
    private readonly memberships: ScimMemberships,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly ownerLock: ScimOwnerLock,
    private readonly removals: MembershipRemovalsStore,
    private readonly joining: JoiningService,
    private readonly grants: GrantsStore,
    private readonly groups: ScimGroupsStore,
  ) {}

  async create(scim: ScimContext, body: unknown, base: string): Promise<Resource> {
    const input = readUser(body);
    const { tenantId } = scim;
    if (await this.store.findByUserName(tenantId, input.userNameKey)) throw userNameTaken();
    const found = await this.personFor(tenantId, input.address);
    const person = await this.memberships.prepared(found, input.active).catch((error) => {
      // An account made for the address meanwhile (the pool refuses a second one).
      throw error instanceof AccountExistsError ? userNameTaken() : error;
    });
    const now = this.clock.now();
    // A member of this organisation keeps their role; anyone else starts as a member (groups change it later).
    const role =
      person.kind === 'existing' && person.user.tenantId === tenantId ? (person.user.role ?? 'member') : 'member';
    const row: ScimUserEntity = {
      id: this.ids.uuid(),
      tenantId,
      userId: person.kind === 'existing' ? person.user.id : person.id,
      userName: input.userName,
      userNameKey: input.userNameKey,
      externalId: input.externalId,
      emailKey: input.address.toLowerCase(),
      active: input.active ? 1 : 0,
      role: input.active ? null : role,
      attributes: JSON.stringify(input.attributes),
      createdAt: now,
      lastModified: now,
    };
    const member = { id: row.userId, email: person.kind === 'existing' ? person.user.email : row.emailKey };
    const inserts = this.store.created(
      row,
      input.active ? [scimEvents.memberJoined(tenantId, scim.tokenId, member, role)] : [],
    );
    let written: ScimWrite;
    try {
      // SCIM provisioning the person brings them back: a removal of theirs is outweighed.
      const deletes = input.active ? [this.removals.cleared(tenantId, row.userId)] : [];
      const undo = [this.store.deletion(row)];
      written = await this.memberships.write(person, tenantId, input.active ? role : null, {
        inserts,
        required: [],
        deletes,
        undo,
      });
    } catch (error) {
      // A parallel create of this userName or person, or an account made for the address meanwhile.
      if (isUniqueViolation(error)) throw userNameTaken();
      throw error;
    }
    if (written === 'emailInUse') throw userNameTaken();
    // The person joined another organisation between the look-up and the write.
    if (written === 'refused') throw addressTaken();
    return toUserResource(row, base);
  }

  async get(scim: ScimContext, id: string, base: string, projection: Projection): Promise<Resource> {
    return (await this.shown(scim, [await this.load(scim, id)], base, projection))[0];
  }

  async list(
    scim: ScimContext,
    query: Record<string, unknown>,
    base: string,
    projection: Projection,
  ): Promise<ListResponse> {
    const filter = typeof query.filter === 'string' && query.filter.trim() !== '' ? userFilter(query.filter) : [];
    const { startIndex, count } = listWindow(query);
    const { total, users } = await this.store.list(scim.tenantId, filter, startIndex, count);
    return listResponse(total, startIndex, await this.shown(scim, users, base, projection));
  }

  /** PUT: the whole resource, as Okta sends it. */
  async replace(scim: ScimContext, id: string, body: unknown, base: string, projection: Projection): Promise<Resource> {
    const input = readUser(body);
    const row = await this.applyToLoaded(scim, id, () => input);
    return (await this.shown(scim, [row], base, projection))[0];
  }

  async patch(scim: ScimContext, id: string, body: unknown, base: string, projection: Projection): Promise<Resource> {
    const operations = patchOperations(body);
    const patched = (row: ScimUserEntity) => readPatchedUser(applyPatch(userAsStored(row), operations, READ_ONLY));
    const row = await this.applyToLoaded(scim, id, patched);
    return (await this.shown(scim, [row], base, projection))[0];
  }

  /**
   * The resources of these rows, with the groups each is in (RFC 7643 section 4.1.2) when the
   * projection shows `groups`: one read for all of them (a list's page), none when it does not.
   */
  private async shown(
    scim: ScimContext,
    rows: ScimUserEntity[],
    base: string,
    projection: Projection,
  ): Promise<Resource[]> {
    const groups = projection.shows(WITH_GROUPS, 'groups')
      ? await this.groups.groupsOfUsers(
          scim.tenantId,
          rows.map((row) => row.id),
        )
      : new Map<string, never[]>();
    return rows.map((row) => toUserResource(row, base, groups.get(row.id)));
  }

  /**
   * A PUT or PATCH of the stored resource. One that deactivates may take an owner away: it is read
   * again and applied under the organisation's owner lock (ScimOwnerLock), so that the last-owner
   * guard counts what earlier changes left.
   */
  private async applyToLoaded(
    scim: ScimContext,
    id: string,
    inputOf: (row: ScimUserEntity) => UserInput,
  ): Promise<ScimUserEntity> {
    const row = await this.load(scim, id);
    if (!(row.active === 1 && inputOf(row).active !== true)) return this.apply(scim, row, inputOf(row));
    return this.ownerLock.holding(scim.tenantId, async () => {
      const current = await this.load(scim, id);
      return this.apply(scim, current, inputOf(current));
    });
  }

  /**
   * DELETE: the person leaves the organisation (the account stays) and the resource is gone, with
   * its group memberships, in one transaction; under the organisation's owner lock (ScimOwnerLock).
   */
  remove(scim: ScimContext, id: string): Promise<void> {
    const { tenantId } = scim;
    return this.ownerLock.holding(tenantId, async () => {
      const row = await this.load(scim, id);
      const user = await this.identity.findById(row.userId);
      const member = user?.tenantId === tenantId ? user : null;
      if (row.active === 1 && member)
        await this.memberships.refuseLosingLastOwner(tenantId, tokenActor(scim.tokenId), [member], 0, 'delete');
      // The custom roles go with the membership, in its transaction.
      const roles = await this.heldRoles(tenantId, member);
      const event = scimEvents.memberRemoved(
        tenantId,
        scim.tokenId,
        { id: row.userId, email: user?.email ?? row.emailKey },
        member?.role ?? row.role,
        roles,
      );
      const removal = this.removals.written({
        tenantId,
        userId: row.userId,
        email: user?.email ?? row.emailKey,
        reason: 'scim_deleted',
        at: this.clock.now(),
      });
      const removed = await this.memberships.detach(
        member,
        tenantId,
        [...this.store.eventRows([event]), ...removal.inserts],
        [this.store.deletion(row)],
        [
          this.store.groupMembershipsDeletion(row),
          ...removal.deletes,
          this.grants.memberRolesDeletion(tenantId, row.userId),
        ],
      );
      if (!removed) throw changedMeanwhile();
    });
  }

  /** The custom roles a member holds in the tenant (none for one who is not a member). */
  private async heldRoles(tenantId: string, member: IdentityUser | null): Promise<string[]> {
    if (!member) return [];
    return (await this.grants.rolesOfMembers(tenantId, [member.id])).get(member.id) ?? [];
  }

  private async load(scim: ScimContext, id: string): Promise<ScimUserEntity> {
    const row = await this.store.find(scim.tenantId, id);
    if (!row) throw notFound();
    return row;
  }

  /** The account the address belongs to, if any; 409 when it is in another organisation, or SCIM has it already. */
  private async personFor(tenantId: string, address: string): Promise<Person> {
    const [user] = await this.identity.findByEmail(address);
    if (!user) return { kind: 'new', id: this.ids.uuid(), email: address };
    // Never says which organisation.
    const held = await this.joining.organisationOf(user);
    if (held && held !== tenantId) throw userNameTaken();
    if (await this.store.findByPerson(user.id)) throw userNameTaken();
    return { kind: 'existing', user };
  }

  /**
   * A PUT or PATCH: the stored resource becomes `input`, the row written; `active` true brings back
   * the person, false or unassigned detaches them.
   */
  private async apply(scim: ScimContext, row: ScimUserEntity, input: UserInput): Promise<ScimUserEntity> {
    const { tenantId, tokenId } = scim;
    if (input.userNameKey !== row.userNameKey && (await this.store.findByUserName(tenantId, input.userNameKey)))
      throw userNameTaken();
    const user = await this.identity.findById(row.userId);
    if (!user) throw notFound();
    const addressChanged = !sameEmail(input.address, user.email);
    if (addressChanged && (await this.identity.findByEmail(input.address)).some((other) => other.id !== user.id))
      throw addressTaken();
    const deactivating = row.active === 1 && input.active !== true;
    const reactivating = row.active !== 1 && input.active === true;
    const member: IdentityUser | null = user.tenantId === tenantId ? user : null;
    if (deactivating && member)
      await this.memberships.refuseLosingLastOwner(tenantId, tokenActor(tokenId), [member], 0, 'deactivate');
    if (reactivating) {
      const held = await this.joining.organisationOf(user);
      if (held && held !== tenantId) throw addressTaken();
    }

    let now = after(row.lastModified, this.clock.now());
    const updated: ScimUserEntity = {
      ...row,
      userName: input.userName,
      userNameKey: input.userNameKey,
      externalId: input.externalId,
      emailKey: input.address.toLowerCase(),
      active: activeColumn(input.active),
      role: deactivating ? (member?.role ?? 'member') : input.active ? null : row.role,
      attributes: JSON.stringify(input.attributes),
      lastModified: now,
    };
    const shown = { id: user.id, email: updated.emailKey };
    const fact = { tenantId, userId: user.id, email: user.email, at: now };
    const changes = changedFields(row, updated);
    const events: NewAuditEvent[] = [];
    if (changes.length) events.push(scimEvents.memberUpdated(tenantId, tokenId, shown, { fields: changes }));
    const rolesLost = deactivating ? await this.heldRoles(tenantId, member) : [];
    if (deactivating)
      events.push(scimEvents.memberDeactivated(tenantId, tokenId, shown, member?.role ?? null, rolesLost));
    const role = row.role ?? 'member';
    if (reactivating) events.push(scimEvents.memberReactivated(tenantId, tokenId, shown, role));
    const inserts = this.store.eventRows(events);

    // The address goes to the identity store with the SCIM row, so that a refusal of either leaves both as they were.
    const localAddress = addressChanged ? this.memberships.localAddressChange(user.id, input.address) : null;
    if (addressChanged && !localAddress)
      updated.lastModified = now = await this.changePooledAddress(row, input, user.id, now);
    const required: RequiredUpdate[] = [this.store.updated(updated)];
    if (localAddress) required.push(localAddress);
    let written: boolean;
    try {
      if (deactivating) {
        const removal = this.removals.written({ ...fact, reason: 'scim_deactivated' });
        written = await this.memberships.detach(member, tenantId, [...inserts, ...removal.inserts], required, [
          ...removal.deletes,
          this.grants.memberRolesDeletion(tenantId, user.id),
        ]);
      } else if (reactivating) {
        const deletes = [this.removals.cleared(tenantId, user.id)];
        const person = { kind: 'existing' as const, user };
        written = (await this.memberships.write(person, tenantId, role, { inserts, required, deletes })) === 'written';
      } else written = await this.store.saveChanges(events, required);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The userName's index, or (local store) the address's: an account made for it meanwhile.
      const taken =
        localAddress && (await this.identity.findByEmail(input.address)).some((other) => other.id !== user.id);
      throw taken ? addressTaken() : userNameTaken();
    }
    if (!written) throw changedMeanwhile();
    return updated;
  }

  /**
   * The user pool's address change, before the rest of the PUT or PATCH: the SCIM row takes the new
   * userName and address first (its unique index judges the userName), then the pool; when the pool
   * refuses, the row gets them back, so that the two never disagree. The row's new lastModified,
   * after which the rest of the change is written.
   */
  private async changePooledAddress(row: ScimUserEntity, input: UserInput, userId: string, now: Date): Promise<Date> {
    const moved: ScimUserEntity = {
      ...row,
      userName: input.userName,
      userNameKey: input.userNameKey,
      emailKey: input.address.toLowerCase(),
      lastModified: now,
    };
    let written: boolean;
    try {
      written = await this.store.updateAsRead(moved, row.lastModified);
    } catch (error) {
      if (isUniqueViolation(error)) throw userNameTaken();
      throw error;
    }
    if (!written) throw changedMeanwhile();
    try {
      await this.identity.changeEmail(userId, input.address);
    } catch (error) {
      await this.store.updateAsRead(row, now);
      if (isUniqueViolation(error) || error instanceof AccountExistsError) throw addressTaken();
      throw error;
    }
    return after(now, this.clock.now());
  }
}

/** The names of the stored fields that a change touched, for member.updated. */
function changedFields(before: ScimUserEntity, after: ScimUserEntity): string[] {
  const fields: string[] = [];
  if (before.userName !== after.userName) fields.push('userName');
  if (before.externalId !== after.externalId) fields.push('externalId');
  if (before.emailKey !== after.emailKey) fields.push('emails');
  if (before.attributes !== after.attributes) fields.push('attributes');
  return fields;
}
