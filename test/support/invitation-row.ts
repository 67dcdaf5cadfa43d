import { InvitationEntity } from '../../src/database/entities';

const WEEK = 7 * 24 * 3600 * 1000;

/** An invitation row for the unit specs' fake stores: pending, to invitee@example.com as admin of tenant-1, open a week from `createdAt`. */
export function invitationRow(
  id: string,
  createdAt: Date,
  overrides: Partial<InvitationEntity> = {},
): InvitationEntity {
  return {
    id,
    tenantId: 'tenant-1',
    email: 'invitee@example.com',
    role: 'admin',
    status: 'pending',
    expiresAt: new Date(createdAt.getTime() + WEEK),
    invitedBy: 'inviter',
    createdAt,
    ...overrides,
  };
}
