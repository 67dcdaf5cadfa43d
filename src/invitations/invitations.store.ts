import { Injectable } from '@nestjs/common';
import { DataSource, MoreThanOrEqual, Not, Repository } from 'typeorm';
import { AuditActor, auditEvents } from '../audit/audit-event';
import { AuditRecorder } from '../audit/audit-recorder';
import { IdGenerator } from '../common/id-generator';
import { InvitationEmailOutboxEntity, InvitationEntity, TenantEntity } from '../database/entities';
import { insertAtomically, updateThenInsertAtomically } from '../database/insert-atomically';
import { InvitationEmail } from '../mail/invitation-mailer';
import { newOutboxRow } from '../mail/outbox/invitation-outbox';

/** Spec section 2: the display name of a tenant without a name. */
export const DEFAULT_TENANT_NAME = 'Organisation';
export const tenantDisplayName = (name: string | null): string => (name?.trim() ? name : DEFAULT_TENANT_NAME);

/** The invitation rows, with parameterised queries only. */
@Injectable()
export class InvitationsStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ids: IdGenerator,
    private readonly audit: AuditRecorder,
  ) {}

  private get invitations(): Repository<InvitationEntity> {
    return this.dataSource.getRepository(InvitationEntity);
  }

  /**
   * Stores the invitation, the e-mail to send for it and its audit event, all or none; the mail
   * outbox delivers the e-mail afterwards.
   */
  async create(invitation: InvitationEntity, email: InvitationEmail, inviter: AuditActor): Promise<void> {
    await insertAtomically(this.dataSource, [
      [InvitationEntity, invitation],
      [InvitationEmailOutboxEntity, newOutboxRow(this.ids.uuid(), invitation, email)],
      this.audit.row(auditEvents.invitationCreated(invitation, inviter)),
    ]);
  }

  /** The invitation whose id is exactly `id`, or null. */
  async findById(id: string): Promise<InvitationEntity | null> {
    const invitation = await this.invitations.findOneBy({ id });
    // MySQL's default collation matches ids case-insensitively and ignores trailing spaces;
    // a token is opaque, so only the exact id counts, as on SQLite.
    return invitation?.id === id ? invitation : null;
  }

  /** The tenant's name; null when the tenant or its name is absent (see tenantDisplayName). */
  async findTenantName(tenantId: string): Promise<string | null> {
    const tenant = await this.dataSource
      .getRepository(TenantEntity)
      .findOne({ select: { id: true, name: true }, where: { id: tenantId } });
    return tenant?.name ?? null;
  }

  /**
   * Stores `expired` on a pending invitation; an invitation accepted meanwhile keeps its status.
   * True when this call changed it, so that each expiry is counted (and recorded) once.
   */
  async markExpired(invitation: InvitationEntity): Promise<boolean> {
    return updateThenInsertAtomically(
      this.dataSource,
      [InvitationEntity, { id: invitation.id, status: 'pending' }, { status: 'expired' }],
      [this.audit.row(auditEvents.invitationExpired(invitation))],
    );
  }

  /**
   * Accepts the invitation unless it is already accepted or expired at `now`, in one conditional
   * UPDATE: of parallel calls for one invitation, exactly one gets true (and records the event).
   */
  async accept(invitation: InvitationEntity, now: Date): Promise<boolean> {
    return updateThenInsertAtomically(
      this.dataSource,
      [InvitationEntity, { id: invitation.id, status: Not('accepted'), expiresAt: MoreThanOrEqual(now) }, { status: 'accepted' }],
      [this.audit.row(auditEvents.invitationAccepted(invitation))],
    );
  }
}
