import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Spec section 2's statuses, and `revoked` (issue 12): an invitation withdrawn by its organisation. */
export const INVITATION_STATUSES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
export const INVITATION_ROLES = ['admin', 'member'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

@Entity({ name: 'tenant_invitations' })
export class InvitationEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'tenant_id', type: 'varchar', length: 128 })
  tenantId: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 16 })
  role: string;

  @Column({ type: 'varchar', length: 16 })
  status: InvitationStatus;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  @Column({ name: 'invited_by', type: 'varchar', length: 128 })
  invitedBy: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
