import { randomUUID } from 'node:crypto';
import { toAuditEventRow } from '../src/audit/audit-event';
import { emailKey } from '../src/common/email-comparison';
import { AuditEventEntity, JoinRequestEntity, MembershipRemovalEntity } from '../src/database/entities';
import { useDatabaseBefore } from './support/undo-migrations';

/**
 * The CreateMembershipRemovals migration on a real database (SQLite, and MariaDB in
 * integration:mariadb): the facts made from the audit trail as it was, so that the purge that
 * follows changes no answer.
 */
describe('migration CreateMembershipRemovals', () => {
  const db = useDatabaseBefore('CreateMembershipRemovals');

  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
  const event = (
    minute: number,
    type: string,
    tenantId: string | null,
    userId: string,
    data: Record<string, unknown> = {},
  ) =>
    toAuditEventRow(randomUUID(), at(minute), {
      type: type as never,
      tenantId,
      actor: null,
      target: { type: 'user', id: userId, email: `${userId}@example.com` },
      data,
    });

  it('the latest removal of each membership, unless the person came back after it; an account deleted, for its organisations', async () => {
    await db.dataSource
      .getRepository(AuditEventEntity)
      .insert([
        event(1, 'member.removed', 't-1', 'removed'),
        event(2, 'member.deactivated', 't-1', 'came-back'),
        event(3, 'member.reactivated', 't-1', 'came-back'),
        event(4, 'member.joined', 't-1', 'by-scim', { via: 'scim' }),
        event(5, 'member.removed', 't-1', 'by-scim', { via: 'scim' }),
        event(6, 'member.deactivated', 't-2', 'deactivated'),
        event(7, 'member.removed', 't-2', 'deactivated', { via: 'scim' }),
        event(9, 'user.deleted', 't-3', 'deleted'),
        event(10, 'member.removed', null, 'nowhere'),
      ]);
    await db.dataSource.getRepository(JoinRequestEntity).insert({
      id: randomUUID(),
      tenantId: 't-4',
      userId: 'deleted',
      email: 'deleted@example.com',
      domain: 'example.com',
      status: 'pending',
      pendingKey: 't-4:deleted',
      createdAt: at(8),
      decidedAt: null,
    });

    await db.dataSource.runMigrations();

    const rows = await db.dataSource
      .getRepository(MembershipRemovalEntity)
      .find({ order: { tenantId: 'ASC', userId: 'ASC' } });
    const fact = (tenantId: string, userId: string, reason: string, minute: number) => ({
      tenantId,
      userId,
      emailKey: emailKey(`${userId}@example.com`),
      reason,
      removedAt: at(minute),
    });
    expect(rows).toEqual([
      fact('t-1', 'by-scim', 'scim_deleted', 5),
      fact('t-1', 'removed', 'removed', 1),
      fact('t-2', 'deactivated', 'scim_deleted', 7),
      fact('t-3', 'deleted', 'account_deleted', 9),
      fact('t-4', 'deleted', 'account_deleted', 9),
    ]);
  });
});
