import { Injectable } from '@nestjs/common';
import { AuditActor, auditEvents } from '../audit/audit-event';
import { AuditRows } from '../audit/audit-rows';
import { AtomicWriter } from '../database/atomic-writer';
import { TenantEntity } from '../database/entities';
import { isoTimestamp, PreparedStatements } from '../database/prepared-statements';

/** A tenant as listed: its creation time as ISO 8601 text. */
export type ListedTenant = Omit<TenantEntity, 'createdAt'> & { createdAt: string };

/** Every tenant, oldest first. */
const SELECT_ALL_TENANTS = 'SELECT id, name, type, status, created_at FROM tenants ORDER BY created_at, id';

/** The tenant rows, with parameterised queries only. */
@Injectable()
export class TenantsStore {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly writer: AtomicWriter,
    private readonly auditRows: AuditRows,
  ) {}

  /** The whole table, read without entities and without a Date per row: 10,000 tenants are one answer. */
  async listAll(): Promise<ListedTenant[]> {
    const rows = await this.statements.manyRows(SELECT_ALL_TENANTS);
    const tenants = new Array<ListedTenant>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const { id, name, type, status, created_at } = rows[i];
      tenants[i] = { id, name, type, status, createdAt: isoTimestamp(created_at) } as ListedTenant;
    }
    return tenants;
  }

  /** Stores the tenant and its audit event, both or neither. The actor is null when the operator CLI creates it. */
  async create(tenant: TenantEntity, actor: AuditActor | null): Promise<void> {
    await this.writer.insert([[TenantEntity, tenant], ...this.auditRows.of(auditEvents.tenantCreated(tenant, actor))]);
  }
}
