import { DataSource } from 'typeorm';
import { invitationsStoreOn, memoryDataSource } from '../../test/support/memory-data-source';
import { TenantsStore } from './tenants.store';
import { InvitationsStore } from '../invitations/invitations.store';
import { PreparedStatements } from '../database/prepared-statements';

const NOW = new Date('2026-01-10T00:00:00.000Z');
const AFTER = { email: 'a@example.com', id: 'b' };
const TENANT_KEY = { createdAt: '2026-01-01T00:00:00.000Z', id: 't' };

/**
 * The query plans of every filter that a list route offers, on a real (in-memory SQLite) database
 * on the real migrations: each reads a range of an index that leads with its filter and follows
 * the list's order, never a scan of the table, so that a list's cost does not grow with the table.
 * MariaDB's, at scale: docs/benchmark.md.
 */
describe('the plans of the lists’ filters', () => {
  let dataSource: DataSource;
  let invitations: InvitationsStore;
  let tenants: TenantsStore;

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    invitations = invitationsStoreOn(dataSource);
    tenants = new TenantsStore(new PreparedStatements(dataSource), undefined as never, undefined as never);
  });
  afterAll(() => dataSource.destroy());

  /** The plan of each statement that `run` reads with, one line per statement. */
  const plansOf = async (run: () => Promise<unknown>): Promise<string[]> => {
    const statements: [string, unknown[]][] = [];
    const spies = (['rows', 'manyRows'] as const).map((method) => {
      const original = PreparedStatements.prototype[method];
      return jest.spyOn(PreparedStatements.prototype, method).mockImplementation(function (
        this: PreparedStatements,
        sql: string,
        parameters: unknown[] = [],
      ) {
        statements.push([sql, parameters]);
        return original.call(this, sql, parameters);
      });
    });
    try {
      await run();
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
    const plans: string[] = [];
    for (const [sql, parameters] of statements) {
      const steps: { detail: string }[] = await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, parameters);
      plans.push(steps.map((step) => step.detail).join(' | '));
    }
    return plans;
  };
  const noScan = (plan: string) =>
    expect(plan).not.toMatch(/SCAN (tenant_invitations|tenants|invitation_email_outbox)/);

  it.each<[string, () => Promise<unknown>, string[]]>([
    [
      'invitations, no filter, past a cursor',
      () => invitations.listForTenant('t', undefined, NOW, AFTER, 51),
      ['INDEX IDX_tenant_invitations_tenant_email_id (tenant_id=? AND email>?)'],
    ],
    [
      'invitations, status=accepted, past a cursor',
      () => invitations.listForTenant('t', ['accepted'], NOW, AFTER, 51),
      ['INDEX IDX_tenant_invitations_tenant_status_email_id (tenant_id=? AND status=? AND email>?)'],
    ],
    [
      'invitations, status=expired: stored expired, and pending past their expiry',
      () => invitations.listForTenant('t', ['expired'], NOW, undefined, 51),
      [
        'INDEX IDX_tenant_invitations_tenant_status_email_id (tenant_id=? AND status=?)',
        'INDEX IDX_tenant_invitations_tenant_status_expires (tenant_id=? AND status=? AND expires_at<?)',
      ],
    ],
    [
      'invitations, pending and expired (org people), past a cursor',
      () => invitations.listForTenant('t', ['pending', 'expired'], NOW, AFTER, 51),
      ['INDEX IDX_tenant_invitations_tenant_status_email_id (tenant_id=? AND status=? AND email>?)'],
    ],
    [
      'the bulk route’s look-up of the addresses it carries',
      () => invitations.findAcceptableKeys('t', ['key'], NOW),
      ['COVERING INDEX IDX_tenant_invitations_tenant_email_key (tenant_id=? AND email_key=?'],
    ],
    [
      'tenants, no filter, past a key',
      () => tenants.list(undefined, TENANT_KEY, 101),
      ['COVERING INDEX IDX_tenants_list (created_at>?)'],
    ],
    [
      'tenants, two statuses, past a key',
      () => tenants.list(['suspended', 'active'], TENANT_KEY, 101),
      ['COVERING INDEX IDX_tenants_status_list (status=? AND created_at>?)'],
    ],
  ])('%s: index ranges, no scan', async (_, run, ranges) => {
    const [plan, ...others] = await plansOf(run);
    expect(others).toEqual([]);
    for (const range of ranges) expect(plan).toContain(`USING ${range}`);
    noScan(plan);
  });

  it('the outbox purge of sent e-mails: a range of (status, sent_at)', async () => {
    const steps: { detail: string }[] = await dataSource.query(
      'EXPLAIN QUERY PLAN DELETE FROM invitation_email_outbox WHERE status = ? AND sent_at < ?',
      ['sent', '2026-01-01 00:00:00.000'],
    );
    const plan = steps.map((step) => step.detail).join(' | ');
    expect(plan).toContain('USING INDEX IDX_invitation_email_outbox_status_sent (status=? AND sent_at<?)');
    noScan(plan);
  });
});
