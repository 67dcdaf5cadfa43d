import { TENANT_TYPES } from '../database/entities/tenant.entity';

/** Spec 4.3 and 4.4: the error messages of the tenant routes. */
export const TENANT_ERRORS = {
  nameRequired: 'Name is required',
  typeRequired: 'Type is required',
  invalidType: `Invalid tenant type. Must be one of: ${TENANT_TYPES.join(', ')}`,
  fetchFailed: 'Failed to fetch tenants',
  listFailed: 'Failed to list tenants',
  createFailed: 'Failed to create tenant',
} as const;
