import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * An index for each filter that a route offers, leading with the filter's columns and ending with
 * the list's order, so that a page reads about as many rows as it returns whatever the table's
 * size (docs/benchmark.md, "At scale"):
 * - audit events of a tenant by type (GET /api/org/audit-events?type=): without it MariaDB took the
 *   type index and read every tenant's events of that type;
 * - a tenant's invitations by stored status, in the list's order (GET /api/org/invitations?status=,
 *   read one status at a time: InvitationsStore.listForTenant);
 * - tenants by status, in the list's order, with the columns the list reads
 *   (GET /api/admin/tenants?status=, as IDX_tenants_list covers the list without a filter);
 * - the e-mail outbox's purge of sent rows (`status = ? AND sent_at < ?`).
 * Audit events by type alone (the admin route) already have IDX_audit_events_type_occurred.
 * Dialect-neutral, like CreateTables.
 */
export class IndexEveryFilter1764810000000 implements MigrationInterface {
  name = 'IndexEveryFilter1764810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, index] of INDEXES) await queryRunner.createIndex(table, index);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, index] of [...INDEXES].reverse()) await queryRunner.dropIndex(table, index.name!);
  }
}

const INDEXES: [string, TableIndex][] = [
  [
    'audit_events',
    new TableIndex({
      name: 'IDX_audit_events_tenant_type_occurred',
      columnNames: ['tenant_id', 'type', 'occurred_at', 'id'],
    }),
  ],
  [
    'tenant_invitations',
    new TableIndex({
      name: 'IDX_tenant_invitations_tenant_status_email_id',
      columnNames: ['tenant_id', 'status', 'email', 'id'],
    }),
  ],
  [
    'tenants',
    new TableIndex({ name: 'IDX_tenants_status_list', columnNames: ['status', 'created_at', 'id', 'type', 'name'] }),
  ],
  [
    'invitation_email_outbox',
    new TableIndex({ name: 'IDX_invitation_email_outbox_status_sent', columnNames: ['status', 'sent_at'] }),
  ],
];
