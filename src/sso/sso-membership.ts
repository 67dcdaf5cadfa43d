import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { auditEvents } from '../audit/audit-event';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { sameEmail } from '../common/email-comparison';
import { IdGenerator } from '../common/id-generator';
import { SsoConnectionEntity, SsoIdentityEntity } from '../database/entities';
import { isUniqueViolation } from '../database/unique-violation';
import { AccountExistsError, IdentityStore, IdentityUser } from '../identity/identity-store';
import { JoiningService, JoinWithoutInvitationOutcome } from '../joining/joining.service';
import { MembershipRemovalsStore } from '../memberships/membership-removals.store';
import { ScimRoleMappingsStore } from '../scim/scim-role-mappings.store';
import { customRolesFor, roleFor } from '../scim/scim-roles';
import { FailedCheck, failedCheck, VerifiedPerson } from './sso-protocol';
import { SsoSignInsStore } from './sso-sign-ins.store';
import { SSO_ERRORS } from './sso.messages';

/**
 * A verified person and the organisation (docs/sso.md, "Signing in", steps 4 and 5): who they are
 * here (by subject, else by address), whether they may sign in or join, the roles their groups give,
 * the join through JoiningService, and their link to the subject with the address it follows.
 */
@Injectable()
export class SsoMembership {
  private readonly logger = new Logger('SingleSignOn');

  constructor(
    private readonly signIns: SsoSignInsStore,
    private readonly identity: IdentityStore,
    private readonly removals: MembershipRemovalsStore,
    private readonly mappings: ScimRoleMappingsStore,
    private readonly joining: JoiningService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * The person: by (connection, subject) from their first sign-in on; at the first, the account that
   * holds the address, if one does; else no account (made when they join).
   */
  async find({ connection, subject, email }: VerifiedPerson): Promise<KnownPerson> {
    const link = await this.signIns.findIdentity(connection.id, subject);
    if (link) {
      const linked = await this.identity.findById(link.userId);
      if (linked) return { user: linked, link };
    }
    const [byAddress] = await this.identity.findByEmail(email);
    return { user: byAddress ?? null, link };
  }

  /**
   * Who the person is to the organisation: a member of it signs in; a member of another is refused; a
   * person this organisation removed is refused as a domain join refuses them; anyone else joins when
   * the connection has jit, else is refused.
   */
  async admission(
    connection: SsoConnectionEntity,
    user: IdentityUser | null,
    email: string,
  ): Promise<'member' | 'joins'> {
    const { tenantId } = connection;
    if (user?.tenantId === tenantId) return 'member';
    if (user?.tenantId) throw memberOfAnother();
    if (user && (await this.removals.removedFrom(user.id, email, [tenantId])).has(tenantId))
      throw new SignInRefused(
        failedCheck(
          HttpStatus.FORBIDDEN,
          SSO_ERRORS.removed,
          'the organisation removed this person; only a new invitation brings them back',
        ),
      );
    if (connection.jit !== 1)
      throw new SignInRefused(
        failedCheck(
          HttpStatus.FORBIDDEN,
          SSO_ERRORS.notProvisioned,
          'the person is not a member, and the connection does not add people at sign-in (jit false)',
        ),
      );
    return 'joins';
  }

  /**
   * The roles a person joins with: those that the organisation's SCIM role mappings give the
   * provider's `groups` (the highest base role, else member, and the custom roles they map), as SCIM
   * gives them; for a person in no mapped group, the connection's default role.
   */
  async joiningRoles(connection: SsoConnectionEntity, groups: string[]): Promise<JoiningRoles> {
    const byDefault = { role: connection.defaultRole, roles: [] };
    if (!groups.length) return byDefault;
    const mapping = await this.mappings.mapping(connection.tenantId);
    const keys = groups.map((group) => group.trim().toLowerCase()).filter((key) => mapping.has(key));
    if (!keys.length) return byDefault;
    return { role: roleFor(keys, mapping), roles: customRolesFor([], keys, mapping) };
  }

  /** The membership, through the joins' one path: the member as they are, or joined with `joining`'s roles. */
  async membership(
    connection: SsoConnectionEntity,
    user: IdentityUser | null,
    email: string,
    { role, roles }: JoiningRoles,
  ): Promise<IdentityUser> {
    const { tenantId } = connection;
    if ((await this.admission(connection, user, email)) === 'member') return user!;
    const member = { id: user?.id ?? this.ids.uuid(), email: user?.email ?? email };
    // A new person's account exists only once their join has committed: the join makes it with its
    // rows (a users row), or right after them (a user pool that takes this id); a pool that names its
    // users makes it first, for the rows to carry its id, and it is deleted when the join does not commit.
    const madeFirst = user === null && (await this.identity.namesNewAccounts());
    let joined: JoinWithoutInvitationOutcome;
    try {
      if (madeFirst) member.id = await this.identity.createAccount(member.id, member.email);
      joined = await this.joining.joinWithoutInvitation(
        member,
        tenantId,
        role,
        () => ({
          required: [],
          events: [auditEvents.memberJoined(member, tenantId, role, 'sso', { connection: connection.id })],
        }),
        { customRoles: roles, account: user === null && !madeFirst ? 'new' : 'existing' },
      );
    } catch (error) {
      if (madeFirst) await this.deleteUnjoined(member.id);
      // The address's account was made meanwhile, by another way in.
      if (error instanceof AccountExistsError) throw emailInUse();
      throw error;
    }
    if (!joined.joined) {
      if (madeFirst) await this.deleteUnjoined(member.id);
      if (joined.emailInUse) throw emailInUse();
      if (joined.memberOf && joined.memberOf !== tenantId) throw memberOfAnother();
    }
    const stored = await this.identity.findById(member.id);
    if (!stored || stored.tenantId !== tenantId) {
      this.logger.warn(`The join of ${member.id} by single sign-on is not in the identity store yet`);
      throw new SignInRefused(
        failedCheck(HttpStatus.CONFLICT, SSO_ERRORS.notProvisioned, 'the membership is not in place yet'),
      );
    }
    return stored;
  }

  /** An account made for a join that did not commit: deleted, so that nothing holds the address. */
  private async deleteUnjoined(id: string): Promise<void> {
    await this.identity.deleteUser(id).catch((error: unknown) => {
      this.logger.warn(`The account ${id} made for a join that did not commit was not deleted: ${messageOf(error)}`);
    });
  }

  /**
   * The member's link to the subject, made or touched; a returning person whose provider now gives
   * another address has their account's address follow, as SCIM's change does. The member as signed in.
   */
  async link(
    member: IdentityUser,
    { connection, subject, email }: VerifiedPerson,
    link: SsoIdentityEntity | null,
  ): Promise<IdentityUser> {
    const moves = link !== null && !sameEmail(member.email, email);
    if (moves && (await this.identity.findByEmail(email)).some((other) => other.id !== member.id)) throw emailInUse();
    // A store in the service's database changes the address with the link's row; one outside it, first.
    const rows = this.identity.accountRows();
    if (moves && rows === null) await this.identity.changeEmail(member.id, email);
    const now = this.clock.now();
    const identity: SsoIdentityEntity = {
      connectionId: connection.id,
      subject,
      userId: member.id,
      email,
      createdAt: link?.createdAt ?? now,
      lastLoginAt: now,
    };
    try {
      await this.signIns.signedIn(identity, link !== null, moves ? rows : null);
    } catch (error) {
      // The address's unique index: an account made for it meanwhile.
      if (isUniqueViolation(error)) throw emailInUse();
      throw error;
    }
    return moves ? { ...member, email } : member;
  }
}

const emailInUse = () =>
  new SignInRefused(failedCheck(HttpStatus.CONFLICT, SSO_ERRORS.emailInUse, 'another account holds this address'));

const memberOfAnother = () =>
  new SignInRefused(
    failedCheck(
      HttpStatus.CONFLICT,
      SSO_ERRORS.memberOfAnotherOrganisation,
      'the person is a member of another organisation',
    ),
  );

/** A sign-in refused after the provider's answer passed: thrown from the person's checks, recorded by the sign-in. */
export class SignInRefused extends Error {
  constructor(readonly check: FailedCheck) {
    super(check.reason);
  }
}

/** The person as this service knows them: the account (null when they have none yet) and the link to their subject. */
export interface KnownPerson {
  user: IdentityUser | null;
  link: SsoIdentityEntity | null;
}

/** The roles a person joins with. */
export interface JoiningRoles {
  role: string;
  roles: string[];
}
