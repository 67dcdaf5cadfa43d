import { Logger } from '@nestjs/common';
import { AuditActor, auditEvents, NewAuditEvent, roleEvents } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AuditRecorder } from '../audit/audit-recorder';
import { messageOf } from '../common/api-error';
import { AtomicWriter, Insert, RequiredUpdate, Statement } from '../database/atomic-writer';
import { PreparedStatements } from '../database/prepared-statements';
import { InvitationEntity, MembershipGrantEntity } from '../database/entities';
import { IdentityUser } from '../identity/identity-store';
import { localUserRows } from '../identity/local/local-identity-store';
import { acceptIfOpen } from '../invitations/invitations.store';
import { memberRole, RoleDefinition, roleUnchanged } from '../permissions/grants.store';
import { SqlStore } from '../database/sql-store';
import { tenantActivation } from '../database/tenant-status-reader';

const DELETE_GRANT = 'DELETE FROM membership_grants WHERE id = ?';

/** Where the membership is written, by identity store. */
export type MembershipChange =
  /** Local store: the users row as the join read it (null: there was none, and one is made). */
  | { store: 'local'; stored: IdentityUser | null }
  /**
   * User pool: the grant to queue, or none when the pool (or a grant on its way) has the membership
   * already; with it, the compare-and-set on the user's membership version read before the membership.
   */
  | { store: 'pool'; grant: MembershipGrantEntity | null; versionUnchanged: RequiredUpdate };

/** A join, as the rules decided it. */
export interface Join {
  /** The tenant joined. */
  tenantId: string;
  /** The invitation accepted by the join; null for a join by a verified domain (docs/domains.md). */
  invitation: InvitationEntity | null;
  /** From the session: their id and e-mail. */
  invitee: AuditActor & { email: string };
  /** The role they hold after the join. */
  role: string;
  /** The invitation's custom roles, as read, that they hold after the join (none for a member of the tenant already). */
  customRoles: RoleDefinition[];
  /** The owner of a pending_owner tenant joins: the tenant becomes active. */
  activatesTenant: boolean;
  now: Date;
  membership: MembershipChange;
  /**
   * A join without an invitation (by a domain, a request, single sign-on, SCIM): the caller's rows,
   * written beside the membership (the request approved, the SCIM user, a removal cleared, say).
   */
  alongside?: Alongside;
}

/** What a join without an invitation writes beside the membership, in its transaction. */
export interface Alongside {
  /** Compare-and-sets: one that finds its row changed writes nothing. */
  required: RequiredUpdate[];
  events: NewAuditEvent[];
  /** Rows of the caller's own (a SCIM user). */
  inserts?: Insert[];
  /** Rows that the membership outweighs (a removal). */
  deletes?: Statement[];
  /** What deletes `inserts` again when the user pool refuses the account that the join makes. */
  undo?: Statement[];
}

/**
 * The SQL of a join: one transaction (AtomicWriter) that accepts the invitation (the compare-and-set
 * that lets one of parallel joins and accepts win), writes the membership (the users row, or the
 * grant for the pool), activates the tenant of a first owner, and records the events.
 */
@SqlStore()
export class MembershipsRepository {
  private readonly logger = new Logger(MembershipsRepository.name);

  constructor(
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
    private readonly statements: PreparedStatements,
    private readonly audit: AuditRecorder,
  ) {}

  /**
   * All or nothing: null, and nothing written, when the invitation, the users row or the tenant
   * is no longer as the rules read it; a users row or grant made meanwhile fails the insert. Else
   * the rows inserted.
   */
  async join(join: Join): Promise<Insert[] | null> {
    const { invitation, tenantId, invitee, role, now, membership } = join;
    const required: RequiredUpdate[] = invitation ? [acceptIfOpen(invitation.id, now)] : [];
    required.push(...(join.alongside?.required ?? []));
    const inserts: Insert[] = [...(join.alongside?.inserts ?? [])];
    if (membership.store === 'local' && membership.stored) {
      required.push(localUserRows.joined(membership.stored, tenantId, role));
    } else if (membership.store === 'local') {
      inserts.push(localUserRows.created(invitee.id, invitee.email, tenantId, role, now));
    } else if (membership.grant) {
      inserts.push([MembershipGrantEntity, membership.grant]);
      required.push(membership.versionUnchanged);
    }
    if (join.activatesTenant) required.push(tenantActivation(tenantId));
    // Each role at the version read: one deleted or changed meanwhile makes the join judged again.
    for (const custom of join.customRoles) {
      inserts.push(memberRole(tenantId, invitee.id, custom.key, now));
      required.push(roleUnchanged(tenantId, custom));
    }
    const events = invitation
      ? [auditEvents.invitationAccepted(invitation), auditEvents.memberJoined(invitee, tenantId, role, 'invitation')]
      : (join.alongside?.events ?? []);
    if (join.customRoles.length) {
      const granted = join.customRoles.map((custom) => custom.key);
      events.push(roleEvents.memberRolesChanged(invitee, tenantId, [], granted, invitee));
    }
    if (join.activatesTenant) events.push(auditEvents.tenantActivated(tenantId, invitee));
    for (const event of events) inserts.push(...this.auditRows.of(event));
    return (await this.writer.insertIfAll(inserts, required, join.alongside?.deletes ?? [])) ? inserts : null;
  }

  /**
   * Takes back a join without an invitation after its commit, when the user pool refused the
   * account it makes: `inserted`'s events and grant (not sent: its writer holds the claim), and the
   * caller's rows by `alongside.undo`. The compare-and-sets stay done.
   */
  async takeBack(join: Join, inserted: Insert[]): Promise<void> {
    const grants = inserted.filter(([entity]) => entity === MembershipGrantEntity);
    for (const [sql, parameters] of [
      ...(join.alongside?.undo ?? []),
      ...this.audit.deletions(inserted),
      ...grants.map(([, grant]): Statement => [DELETE_GRANT, [(grant as MembershipGrantEntity).id]]),
    ])
      // Each statement on its own: one that fails (the database gone meanwhile) leaves the others to go.
      await this.statements.changes(sql, parameters).catch((error: unknown) => {
        this.logger.warn(`A join of ${join.invitee.id} was not wholly taken back (${sql}): ${messageOf(error)}`);
      });
  }
}
