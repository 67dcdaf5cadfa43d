import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, FORBIDDEN_BODY } from '../common/openapi';
import { ApiJsonBody } from '../common/validate-body';
import { TENANT_ERRORS } from './admin-tenants.messages';
import { ChangedTenantResponse, DeletedTenantResponse, TenantDetailsResponse } from './dto/tenant-details.response';
import { SuspendTenantDto } from './dto/suspend-tenant.dto';
import { TENANT_LIFECYCLE_ERRORS } from './tenant-lifecycle.messages';

const { notFound, deleted, alreadySuspended, notSuspended, nothingToUpdate, reasonNotString, reasonTooLong } =
  TENANT_LIFECYCLE_ERRORS;

/**
 * The API document's part for TenantLifecycleController (docs/tenant-lifecycle.md), kept here so
 * that the handlers read as one line each. The 500s are the handlers' @FailureResponse.
 */
export const ApiTenantLifecycle = () =>
  applyDecorators(
    ApiTags('Admin: tenants'),
    ApiSession(),
    ApiErrorResponse(
      403,
      'No session, or the caller is not a super-administrator (spec section 5: any other /api/admin route)',
      [FORBIDDEN_BODY],
    ),
    ApiParam({ name: 'id', description: 'The tenant id' }),
    ApiErrorResponse(404, 'No such tenant', [{ error: notFound }]),
  );

export const ApiReadTenant = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Read one tenant, with its members by role and its pending invitations (a deleted one too)',
    }),
    ApiOkResponse({ type: TenantDetailsResponse }),
  );

export const ApiUpdateTenant = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Rename or retype a tenant, under the rules of its creation (spec 4.4); event tenant.updated',
    }),
    ApiOkResponse({ type: ChangedTenantResponse }),
    ApiJsonBody('Neither field given, or a field breaks the rules of spec 4.4', [
      { error: nothingToUpdate },
      { error: TENANT_ERRORS.nameRequired },
      { error: TENANT_ERRORS.typeRequired },
      { error: TENANT_ERRORS.invalidType },
    ]),
    ApiErrorResponse(409, 'The tenant is deleted', [{ error: deleted }]),
  );

export const ApiSuspendTenant = () =>
  applyDecorators(
    ApiOperation({
      summary:
        "Suspend a tenant: its members' org routes, its invitations and its e-mails wait; event tenant.suspended",
      description: 'Holds from the next request on every instance. The body and its reason are optional.',
    }),
    ApiBody({ type: SuspendTenantDto, required: false }),
    ApiOkResponse({ type: ChangedTenantResponse }),
    ApiJsonBody('The reason is not a string, or too long', [{ error: reasonNotString }, { error: reasonTooLong }]),
    ApiErrorResponse(409, 'The tenant is suspended already, or deleted', [
      { error: alreadySuspended },
      { error: deleted },
    ]),
  );

export const ApiReactivateTenant = () =>
  applyDecorators(
    ApiOperation({
      summary:
        'Give a suspended tenant back the status it had before (active or pending_owner); event tenant.reactivated',
    }),
    ApiOkResponse({ type: ChangedTenantResponse }),
    ApiErrorResponse(409, 'The tenant is not suspended, or deleted', [{ error: notSuspended }, { error: deleted }]),
  );

export const ApiDeleteTenant = () =>
  applyDecorators(
    ApiOperation({
      summary:
        'Delete a tenant: members detached (accounts kept), open invitations revoked, the row kept as deleted; event tenant.deleted',
      description: 'In bounded batches. A deletion cut short is finished by the next DELETE.',
    }),
    ApiOkResponse({ type: DeletedTenantResponse }),
    ApiErrorResponse(409, 'The tenant is deleted already', [{ error: deleted }]),
  );
