import { TENANT_STATUSES } from '../database/entities/tenant.entity';

/** The tenant lifecycle routes (docs/tenant-lifecycle.md): their error messages. */
export const TENANT_LIFECYCLE_ERRORS = {
  notFound: 'Tenant not found',
  deleted: 'Tenant is deleted',
  alreadySuspended: 'Tenant is already suspended',
  notSuspended: 'Tenant is not suspended',
  nothingToUpdate: 'Name or type is required',
  reasonNotString: 'Reason must be a string',
  reasonTooLong: 'Reason must be at most 500 characters',
  invalidStatus: `Invalid status. Must be one of: ${TENANT_STATUSES.join(', ')}`,
  readFailed: 'Failed to read tenant',
  updateFailed: 'Failed to update tenant',
  suspendFailed: 'Failed to suspend tenant',
  reactivateFailed: 'Failed to reactivate tenant',
  deleteFailed: 'Failed to delete tenant',
} as const;
