import { TenantEntity } from '../../database/entities';

/** Spec section 2, Tenant. */
export interface TenantResponse {
  id: string;
  name: string | null;
  type: string;
  status: string;
  createdAt: string;
}

export const toTenantResponse = (tenant: TenantEntity): TenantResponse => ({
  id: tenant.id,
  name: tenant.name,
  type: tenant.type,
  status: tenant.status,
  createdAt: tenant.createdAt.toISOString(),
});
