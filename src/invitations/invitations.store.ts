import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThanOrEqual, Not, Repository } from 'typeorm';
import { InvitationEntity, TenantEntity } from '../database/entities';

/** The invitation rows that the public endpoints read and change, with parameterised queries only. */
@Injectable()
export class InvitationsStore {
  constructor(
    @InjectRepository(InvitationEntity) private readonly invitations: Repository<InvitationEntity>,
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
  ) {}

  /** The invitation whose id is exactly `id`, or null. */
  async findById(id: string): Promise<InvitationEntity | null> {
    const invitation = await this.invitations.findOneBy({ id });
    // MySQL's default collation matches ids case-insensitively and ignores trailing spaces;
    // a token is opaque, so only the exact id counts, as on SQLite.
    return invitation?.id === id ? invitation : null;
  }

  /** The tenant's name; null when the tenant or its name is absent. */
  async findTenantName(tenantId: string): Promise<string | null> {
    const tenant = await this.tenants.findOne({ select: { id: true, name: true }, where: { id: tenantId } });
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
