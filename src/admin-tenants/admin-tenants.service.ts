import { HttpStatus, Injectable } from '@nestjs/common';
import { AuditActor } from '../audit/audit-event';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { TenantEntity } from '../database/entities';
import { TenantStatus } from '../database/entities/tenant.entity';
import { TENANT_ERRORS } from './admin-tenants.messages';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { TenantResponse, toTenantResponse } from './dto/tenant.response';
import { ListedTenant, TenantsStore } from './tenants.store';

export const TENANT_INITIAL_STATUS: TenantStatus = 'pending_owner';

/** Spec 4.3 and 4.4; other failures are the routes' @FailureResponse. */
@Injectable()
export class AdminTenantsService {
  constructor(
    private readonly tenants: TenantsStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** Spec 4.3: a failure when fetching has a message of its own. */
  async list(statuses?: TenantStatus[]): Promise<{ tenants: TenantResponse[] }> {
    let tenants: ListedTenant[];
    try {
      tenants = await this.tenants.list(statuses);
    } catch (error) {
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, TENANT_ERRORS.fetchFailed, error);
    }
    return { tenants };
  }

  /**
   * Spec 4.4 rules 5–6; rules 1–4 ran in the guards and the body pipe. The actor is null when
   * the operator CLI creates the tenant.
   */
  async create(dto: CreateTenantDto, actor: AuditActor | null): Promise<{ success: true; tenant: TenantResponse }> {
    const tenant: TenantEntity = {
      id: this.ids.uuid(),
      name: dto.name,
      type: dto.type,
      status: TENANT_INITIAL_STATUS,
      createdAt: this.clock.now(),
    };
    await this.tenants.create(tenant, actor);
    return { success: true, tenant: toTenantResponse(tenant) };
  }
}
