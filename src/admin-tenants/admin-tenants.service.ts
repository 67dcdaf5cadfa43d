import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AuditActor, auditEvents } from '../audit/audit-event';
import { AuditRecorder } from '../audit/audit-recorder';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { TenantEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { isoTimestamp, PreparedStatements, Row } from '../database/prepared-statements';
import { TENANT_ERRORS } from './admin-tenants.messages';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { TenantResponse, toTenantResponse } from './dto/tenant.response';

export const TENANT_INITIAL_STATUS = 'pending_owner';

/**
 * The tenants of the list, oldest first, read without entities (10,000 tenants are one answer):
 * every one but the deleted ones (kept for the audit trail), or those with the statuses asked for.
 */
const SELECT_TENANTS = 'SELECT id, name, type, status, created_at FROM tenants';
const SELECT_LISTED_TENANTS = `${SELECT_TENANTS} WHERE status <> 'deleted' ORDER BY created_at, id`;
const selectTenantsWithStatus = (count: number) =>
  `${SELECT_TENANTS} WHERE status IN (${Array(count).fill('?').join(', ')}) ORDER BY created_at, id`;

/** Spec 4.3 and 4.4; other failures are the routes' @FailureResponse. */
@Injectable()
export class AdminTenantsService {
  private readonly statements: PreparedStatements;

  constructor(
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    dataSource: DataSource,
    private readonly audit: AuditRecorder,
  ) {
    this.statements = new PreparedStatements(dataSource);
  }

  /** Spec 4.3: a failure when fetching has a message of its own. */
  async list(statuses?: TenantStatus[]): Promise<{ tenants: TenantResponse[] }> {
    const [sql, parameters] = statuses ? [selectTenantsWithStatus(statuses.length), statuses] : [SELECT_LISTED_TENANTS, []];
    let rows: Row[];
    try {
      rows = await this.statements.manyRows(sql, parameters);
    } catch (error) {
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, TENANT_ERRORS.fetchFailed, error);
    }
    const tenants = new Array<TenantResponse>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const { id, name, type, status, created_at } = rows[i];
      tenants[i] = { id, name, type, status, createdAt: isoTimestamp(created_at) } as TenantResponse;
    }
    return { tenants };
  }

  /**
   * Spec 4.4 rules 5–6; rules 1–4 ran in the guards and the body pipe. The actor is null when
   * the operator CLI creates the tenant.
   */
  async create(dto: CreateTenantDto, actor: AuditActor | null): Promise<{ success: true; tenant: TenantResponse }> {
    const tenant = this.tenants.create({
      id: this.ids.uuid(),
      name: dto.name,
      type: dto.type,
      status: TENANT_INITIAL_STATUS,
      createdAt: this.clock.now(),
    });
    await this.audit.record(auditEvents.tenantCreated(tenant, actor), [[TenantEntity, tenant]]);
    return { success: true, tenant: toTenantResponse(tenant) };
  }
}
