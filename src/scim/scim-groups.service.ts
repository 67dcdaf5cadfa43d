import { HttpStatus, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { ScimGroupEntity, ScimUserEntity } from '../database/entities';
import { SCIM_MESSAGES, ScimError } from './scim-errors';
import { scimEvents, tokenActor } from './scim-events';
import { groupFilter } from './scim-filter';
import { ScimGroupsStore } from './scim-groups.store';
import { applyPatch, patchOperations, Resource } from './scim-patch';
import {
  groupAsStored,
  GroupInput,
  ListResponse,
  listResponse,
  listWindow,
  readGroup,
  toGroupResource,
} from './scim-resources';
import { ScimOwnerLock } from './scim-owner-lock';
import { RoleChange, ScimRoles } from './scim-roles';
import { ScimContext } from './scim-token.guard';
import { ScimUsersStore } from './scim-users.store';

const notFound = () => new ScimError(HttpStatus.NOT_FOUND, SCIM_MESSAGES.groupNotFound);
const nameTaken = () => new ScimError(HttpStatus.CONFLICT, SCIM_MESSAGES.groupNameTaken, 'uniqueness');
const READ_ONLY = ['id', 'meta'];

const withoutMembers = (query: Record<string, unknown>) =>
  typeof query.excludedAttributes === 'string' &&
  query.excludedAttributes
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .includes('members');

/**
 * SCIM Groups (RFC 7643 section 4.2): an organisation's groups and their members. A group's
 * displayName is the role mapping's key (docs/scim.md, "Roles from groups"): every change of a
 * group recomputes the roles of the members it touches, refused whole when it would leave the
 * organisation without an owner.
 */
@Injectable()
export class ScimGroupsService {
  constructor(
    private readonly store: ScimGroupsStore,
    private readonly users: ScimUsersStore,
    private readonly roles: ScimRoles,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly ownerLock: ScimOwnerLock,
  ) {}

  async create(scim: ScimContext, body: unknown, base: string): Promise<Resource> {
    const input = readGroup(body);
    const { tenantId, tokenId } = scim;
    if (await this.store.findByName(tenantId, input.displayNameKey)) throw nameTaken();
    const members = await this.members(tenantId, input.members);
    const now = this.clock.now();
    const group: ScimGroupEntity = {
      id: this.ids.uuid(),
      tenantId,
      displayName: input.displayName,
      displayNameKey: input.displayNameKey,
      externalId: input.externalId,
      createdAt: now,
      lastModified: now,
    };
    const changes = await this.planGroupChange(scim, members, null, {
      key: group.displayNameKey,
      members: input.members,
    });
    const event = scimEvents.groupCreated(tenantId, tokenId, group, members.length);
    if (!(await this.store.create(group, input.members, event))) throw nameTaken();
    await this.roles.apply(tenantId, tokenActor(tokenId), changes);
    return toGroupResource(group, members, base);
  }

  async list(scim: ScimContext, query: Record<string, unknown>, base: string): Promise<ListResponse> {
    const conditions = typeof query.filter === 'string' && query.filter.trim() ? groupFilter(query.filter) : [];
    const { startIndex, count } = listWindow(query);
    const { total, groups } = await this.store.list(scim.tenantId, conditions, startIndex, count);
    const resources: Resource[] = [];
    for (const group of groups) {
      const members = withoutMembers(query) ? null : await this.currentMembers(group);
      resources.push(toGroupResource(group, members, base));
    }
    return listResponse(total, startIndex, resources);
  }

  async get(scim: ScimContext, id: string, query: Record<string, unknown>, base: string): Promise<Resource> {
    const group = await this.load(scim, id);
    return toGroupResource(group, withoutMembers(query) ? null : await this.currentMembers(group), base);
  }

  /** A change that may demote an owner: under the organisation's owner lock (ScimOwnerLock), read afresh. */
  replace(scim: ScimContext, id: string, body: unknown, base: string): Promise<Resource> {
    const input = readGroup(body);
    return this.ownerLock.holding(scim.tenantId, async () => this.apply(scim, await this.load(scim, id), input, base));
  }

  patch(scim: ScimContext, id: string, body: unknown, base: string): Promise<Resource> {
    const operations = patchOperations(body);
    return this.ownerLock.holding(scim.tenantId, async () => {
      const group = await this.load(scim, id);
      const memberIds = await this.memberIds(group);
      const input = readGroup(applyPatch(groupAsStored(group, memberIds), operations, READ_ONLY));
      return this.apply(scim, group, input, base, memberIds);
    });
  }

  /** The group and its memberships go in one transaction; then the roles it gave. */
  remove(scim: ScimContext, id: string): Promise<void> {
    const { tenantId, tokenId } = scim;
    return this.ownerLock.holding(tenantId, async () => {
      const group = await this.load(scim, id);
      const members = await this.users.findMany(tenantId, await this.memberIds(group));
      const changes = await this.planGroupChange(scim, members, group.displayNameKey, null);
      const deleted = await this.store.delete(group, scimEvents.groupDeleted(tenantId, tokenId, group));
      if (!deleted) throw notFound();
      await this.roles.apply(tenantId, tokenActor(tokenId), changes);
    });
  }

  /**
   * The role changes when `users` leave the group `leaving` (its displayName key) and those of them
   * in `joining.members` join the group `joining.key`: planned before anything is written, refused
   * whole when they would leave the organisation without an owner (ScimRoles.plan).
   */
  private async planGroupChange(
    scim: ScimContext,
    users: ScimUserEntity[],
    leaving: string | null,
    joining: { key: string; members: string[] } | null,
  ): Promise<RoleChange[]> {
    const { tenantId, tokenId } = scim;
    const keys = await this.roles.groupKeysOf(
      tenantId,
      users.map((user) => user.id),
    );
    for (const user of users) {
      const userKeys = keys.get(user.id)!;
      if (leaving !== null) userKeys.delete(leaving);
      if (joining?.members.includes(user.id)) userKeys.add(joining.key);
    }
    return this.roles.plan(tenantId, tokenActor(tokenId), users, keys, await this.roles.mapping(tenantId), 'group');
  }

  private async apply(
    scim: ScimContext,
    group: ScimGroupEntity,
    input: GroupInput,
    base: string,
    knownMemberIds?: string[],
  ): Promise<Resource> {
    const { tenantId, tokenId } = scim;
    if (input.displayNameKey !== group.displayNameKey) {
      const holder = await this.store.findByName(tenantId, input.displayNameKey);
      if (holder && holder.id !== group.id) throw nameTaken();
    }
    const before = knownMemberIds ?? (await this.memberIds(group));
    const members = await this.members(tenantId, input.members);
    const added = input.members.filter((id) => !before.includes(id));
    const removed = before.filter((id) => !input.members.includes(id));
    const renamed = input.displayNameKey !== group.displayNameKey;
    // Who may change role: those who join or leave, and every member when the name (the mapping's key) changes.
    const touched = renamed ? [...new Set([...before, ...input.members])] : [...added, ...removed];
    const changes = await this.planGroupChange(
      scim,
      await this.users.findMany(tenantId, touched),
      group.displayNameKey,
      {
        key: input.displayNameKey,
        members: input.members,
      },
    );
    const now = new Date(Math.max(this.clock.now().getTime(), group.lastModified.getTime() + 1));
    const updated: ScimGroupEntity = {
      ...group,
      displayName: input.displayName,
      displayNameKey: input.displayNameKey,
      externalId: input.externalId,
      lastModified: now,
    };
    const event = scimEvents.groupUpdated(tenantId, tokenId, updated, {
      ...(renamed && { displayNameBefore: group.displayName }),
      membersAdded: added,
      membersRemoved: removed,
    });
    // The group, the members it gains and those it loses: one transaction.
    const written = await this.store.update(updated, added, removed, event);
    if (written === 'name_taken') throw nameTaken();
    if (written === 'gone') throw notFound();
    await this.roles.apply(tenantId, tokenActor(tokenId), changes);
    return toGroupResource(updated, members, base);
  }

  private async load(scim: ScimContext, id: string): Promise<ScimGroupEntity> {
    const group = await this.store.find(scim.tenantId, id);
    if (!group) throw notFound();
    return group;
  }

  private memberIds(group: ScimGroupEntity): Promise<string[]> {
    return this.store.memberIds(group);
  }

  private async currentMembers(group: ScimGroupEntity): Promise<ScimUserEntity[]> {
    return this.users.findMany(group.tenantId, await this.memberIds(group));
  }

  /** The organisation's SCIM users with these ids, in the order given; 400 when one is not. */
  private async members(tenantId: string, ids: string[]): Promise<ScimUserEntity[]> {
    const found = new Map((await this.users.findMany(tenantId, ids)).map((user) => [user.id, user]));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined)
      throw new ScimError(HttpStatus.BAD_REQUEST, `"${missing}" is not a User of this organisation`, 'invalidValue');
    return ids.map((id) => found.get(id)!);
  }
}
