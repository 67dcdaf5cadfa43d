import { Column, Entity } from 'typeorm';
import { IdColumn, VarcharColumn, TimestampColumn } from '../columns';

/** Spec section 2's statuses, and `revoked`: an invitation withdrawn by its organisation (docs/organisation.md). */
export const INVITATION_STATUSES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
/** The roles an organisation invites people to. */
export const INVITATION_ROLES = ['admin', 'member'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];
/** The roles an invitation may carry: those, and owner, of a super-admin's invitation of a tenant's first owner. */
export const STORED_INVITATION_ROLES = ['owner', ...INVITATION_ROLES] as const;
export const STORED_INVITATION_ROLE_NOTE = 'owner: an invitation of the tenant’s first owner, made by a super-admin';

@Entity({ name: 'tenant_invitations' })
export class InvitationEntity {
  @IdColumn()
  id: string;

  @VarcharColumn(128, { name: 'tenant_id' })
  tenantId: string;

  @VarcharColumn(320)
  email: string;

  /**
   * emailKey(email), written by InvitationsStore with every new invitation: how the bulk route finds
   * the addresses already invited (migration AddInvitationsEmailKey). Not read with the row.
   */
  @Column({ type: 'varchar', length: 64, name: 'email_key', nullable: true, select: false })
  emailKey?: string | null;

  @VarcharColumn(16)
  role: string;

  @VarcharColumn(16)
  status: InvitationStatus;

  @TimestampColumn('expires_at')
  expiresAt: Date;

  @VarcharColumn(128, { name: 'invited_by' })
  invitedBy: string;

  @TimestampColumn('created_at')
  createdAt: Date;
}
