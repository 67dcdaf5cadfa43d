import { Injectable } from '@nestjs/common';
import { DataSource, MoreThanOrEqual, Not, Repository } from 'typeorm';
import { IdGenerator } from '../common/id-generator';
import { InvitationEmailOutboxEntity, InvitationEntity, TenantEntity } from '../database/entities';
import { insertAtomically } from '../database/insert-atomically';
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
  ) {}

  private get invitations(): Repository<InvitationEntity> {
    return this.dataSource.getRepository(InvitationEntity);
  }

  /**
   * Stores the invitation and the e-mail to send for it, both or neither; the mail outbox
   * delivers the e-mail afterwards.
   */
  async create(invitation: InvitationEntity, email: InvitationEmail): Promise<void> {
    await insertAtomically(this.dataSource, [
      [InvitationEntity, invitation],
      [InvitationEmailOutboxEntity, newOutboxRow(this.ids.uuid(), invitation, email)],
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
   * True when this call changed it, so that each expiry is counted once.
   */
  async markExpired(id: string): Promise<boolean> {
    const result = await this.invitations.update({ id, status: 'pending' }, { status: 'expired' });
    return result.affected === 1;
  }

  /**
   * Accepts the invitation unless it is already accepted or expired at `now`, in one conditional
   * UPDATE: of parallel calls for one invitation, exactly one gets true.
   */
  async accept(id: string, now: Date): Promise<boolean> {
    const result = await this.invitations.update(
      { id, status: Not('accepted'), expiresAt: MoreThanOrEqual(now) },
      { status: 'accepted' },
    );
    return result.affected === 1;
  }
}
