import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { TenantEntity } from '../database/entities';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { TenantResponse, toTenantResponse } from './dto/tenant.response';

export const TENANT_INITIAL_STATUS = 'pending_owner';

@Injectable()
export class AdminTenantsService {
  private readonly logger = new Logger(AdminTenantsService.name);

  constructor(
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** Spec 4.3. */
  async list(): Promise<{ tenants: TenantResponse[] }> {
    let rows: TenantEntity[];
    try {
      rows = await this.tenants.find({ order: { createdAt: 'ASC', id: 'ASC' } });
    } catch (error) {
      this.logger.error(`Fetching tenants failed: ${(error as Error).message}`);
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, 'Failed to fetch tenants');
    }
    try {
      return { tenants: rows.map(toTenantResponse) };
    } catch (error) {
      this.logger.error(`Listing tenants failed: ${(error as Error).message}`);
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, 'Failed to list tenants');
    }
  }

  /** Spec 4.4 rules 5–6; rules 1–4 ran in the guards and the body pipe. */
  async create(dto: CreateTenantDto): Promise<{ success: true; tenant: TenantResponse }> {
    const tenant = this.tenants.create({
      id: this.ids.uuid(),
      name: dto.name,
      type: dto.type,
      status: TENANT_INITIAL_STATUS,
      createdAt: this.clock.now(),
    });
    try {
      await this.tenants.insert(tenant);
    } catch (error) {
      this.logger.error(`Creating a tenant failed: ${(error as Error).message}`);
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, 'Failed to create tenant');
    }
    return { success: true, tenant: toTenantResponse(tenant) };
  }
}
