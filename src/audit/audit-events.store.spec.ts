import { DataSource } from 'typeorm';
import { memoryDataSource } from '../../test/support/memory-data-source';
import { AuditEventFilter, AuditEventsStore } from './audit-events.store';

/** The listing's query plans on a real (in-memory SQLite) database, on the real migrations. */
describe(AuditEventsStore.name, () => {
  let dataSource: DataSource;
  let store: AuditEventsStore;

  beforeAll(async () => {
    dataSource = await memoryDataSource();
    store = new AuditEventsStore(dataSource);
  });
  afterAll(() => dataSource.destroy());

  const plan = async (filter: AuditEventFilter) => {
    const [sql, parameters] = store.listQuery(filter, 51).getQueryAndParameters();
    const steps: { detail: string }[] = await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, parameters);
    return steps.map((step) => step.detail).join(' | ');
  };
  const after = { occurredAt: new Date('2026-01-01T00:00:00Z'), id: '00000000-0000-4000-8000-000000000000' };

  it.each<[string, AuditEventFilter, string]>([
    ['no filter', {}, 'IDX_audit_events_occurred'],
    [
      'a tenant, past a cursor',
      { tenantId: 't', after },
      'IDX_audit_events_tenant_occurred (tenant_id=? AND occurred_at<?)',
    ],
    ['a cursor', { after }, 'IDX_audit_events_occurred (occurred_at<?)'],
    ['one type', { types: ['user.deleted'] }, 'IDX_audit_events_type_occurred'],
    [
      'a tenant and a type, past a cursor',
      { tenantId: 't', types: ['tenant.created'], after },
      'IDX_audit_events_tenant_type_occurred (tenant_id=? AND type=? AND occurred_at<?)',
    ],
    [
      'an actor and a time window',
      { actorId: 'a', since: new Date(0), until: new Date() },
      'IDX_audit_events_actor_occurred',
    ],
    ['a target', { targetId: 'u' }, 'IDX_audit_events_target_occurred'],
  ])('one page with %s reads an index range in the listing order: no scan, no sort', async (_, filter, index) => {
    const steps = await plan(filter);
    expect(steps).toContain(`USING INDEX ${index}`);
    expect(steps).not.toMatch(/TEMP B-TREE|SCAN event(?! USING)/);
  });
});
