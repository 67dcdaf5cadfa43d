import { SessionsService } from '../sessions/sessions.service';
import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { AuditActor, auditEvents, TenantChanges } from '../audit/audit-event';
import { ApiError, messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { IdentityStore } from '../identity/identity-store';
import { GrantsStore } from '../permissions/grants.store';
import { InvitationsStore } from '../invitations/invitations.store';
import { SuspendTenantDto } from './dto/suspend-tenant.dto';
import { ChangedTenantResponse, TenantDetailsResponse } from './dto/tenant-details.response';
import { toTenantResponse } from './dto/tenant.response';
import { UpdateTenantDto } from './dto/update-tenant.dto';
import { TENANT_LIFECYCLE_ERRORS } from './tenant-lifecycle.messages';
import { STATUS_AFTER_SUSPENSION_FALLBACK, TenantRecord, TenantsStore } from './tenants.store';

/** Members detached, and invitations revoked, per statement of a deletion: short transactions, whatever the tenant's size. */
export const DELETION_BATCH_SIZE = 500;

/** Why the tenant, as it is, refuses the change: a 409 message, or null when it can be made. */
type Refusal = (tenant: TenantRecord) => string | null;

const refuseDeleted: Refusal = (tenant) => (tenant.status === 'deleted' ? TENANT_LIFECYCLE_ERRORS.deleted : null);
const refuseSuspension: Refusal = (tenant) =>
  refuseDeleted(tenant) ?? (tenant.status === 'suspended' ? TENANT_LIFECYCLE_ERRORS.alreadySuspended : null);
const refuseReactivation: Refusal = (tenant) =>
  refuseDeleted(tenant) ?? (tenant.status !== 'suspended' ? TENANT_LIFECYCLE_ERRORS.notSuspended : null);

/** The fields whose value the update changes, before and after. */
function changesOf(before: TenantRecord, after: TenantRecord): TenantChanges {
  const changes: TenantChanges = {};
  for (const field of ['name', 'type'] as const) {
    if (before[field] !== after[field]) changes[field] = { before: before[field], after: after[field] };
  }
  return changes;
}

/**
 * The tenant lifecycle (docs/tenant-lifecycle.md): read one tenant, rename or retype it, suspend
 * and reactivate it, delete it. The actor is null when the operator CLI acts. Every other failure
 * is the routes' @FailureResponse.
 */
@Injectable()
export class TenantLifecycleService {
  private readonly logger = new Logger(TenantLifecycleService.name);

  constructor(
    private readonly tenants: TenantsStore,
    private readonly identity: IdentityStore,
    private readonly invitations: InvitationsStore,
    private readonly clock: Clock,
    private readonly grants: GrantsStore,
    private readonly sessions: SessionsService,
  ) {}

  /** The tenant, its members by role and its pending invitations: counts read from indexes. */
  async read(id: string): Promise<TenantDetailsResponse> {
    const tenant = await this.existing(id);
    const [members, pendingInvitations] = await Promise.all([
      this.identity.countTenantMembers(id),
      this.tenants.countPendingInvitations(id, this.clock.now()),
    ]);
    return { tenant: toTenantResponse(tenant), members, pendingInvitations };
  }

  /** Name and type under spec 4.4's rules (the body pipe); a field given with its current value changes nothing. */
  async update(id: string, dto: UpdateTenantDto, actor: AuditActor | null): Promise<ChangedTenantResponse> {
    if (dto.name === undefined && dto.type === undefined)
      throw new ApiError(HttpStatus.BAD_REQUEST, TENANT_LIFECYCLE_ERRORS.nothingToUpdate);
    const updated = await this.transition(id, refuseDeleted, async (tenant) => {
      const after = { ...tenant, name: dto.name ?? tenant.name, type: dto.type ?? tenant.type };
      const changes = changesOf(tenant, after);
      if (!Object.keys(changes).length) return after;
      return (await this.tenants.update(after, auditEvents.tenantUpdated(after, changes, actor))) && after;
    });
    this.invitations.forgetTenantName(id);
    return { success: true, tenant: toTenantResponse(updated) };
  }

  /** Shuts the tenant's people out from the next request on, keeping everything it holds. */
  async suspend(id: string, dto: SuspendTenantDto, actor: AuditActor | null): Promise<ChangedTenantResponse> {
    const reason = dto.reason || null;
    const suspended = await this.transition(
      id,
      refuseSuspension,
      async (tenant) =>
        (await this.tenants.suspend(tenant, auditEvents.tenantSuspended(tenant, reason, actor))) && {
          ...tenant,
          status: 'suspended',
        },
    );
    return { success: true, tenant: toTenantResponse(suspended) };
  }

  /** Gives the tenant back the status it had before the suspension; its e-mails held back go out now. */
  async reactivate(id: string, actor: AuditActor | null): Promise<ChangedTenantResponse> {
    const reactivated = await this.transition(id, refuseReactivation, async (tenant) => {
      const status = tenant.statusBeforeSuspension ?? STATUS_AFTER_SUSPENSION_FALLBACK;
      return (
        (await this.tenants.reactivate(id, auditEvents.tenantReactivated(tenant, status, actor))) && {
          ...tenant,
          status,
        }
      );
    });
    try {
      await this.tenants.releaseHeldEmails(id, this.clock.now());
    } catch (error) {
      // The reactivation stands: the held e-mails go out at their next check instead.
      this.logger.warn(`Releasing the held e-mails of reactivated tenant ${id} failed: ${messageOf(error)}`);
    }
    return { success: true, tenant: toTenantResponse(reactivated) };
  }

  /**
   * Detaches every member (the accounts stay), takes the custom roles away with the roles
   * themselves, revokes every open invitation, and keeps the row with status `deleted` for the
   * audit trail. The status comes first, so that the tenant's people are shut out at once; then
   * bounded batches, each a transaction of its own; then `deleted_at` with the event. A deletion
   * cut short is finished by the next DELETE; a finished one is 409.
   */
  async delete(id: string, actor: AuditActor | null): Promise<{ success: true }> {
    const tenant = await this.existing(id);
    if (tenant.deletedAt) throw new ApiError(HttpStatus.CONFLICT, TENANT_LIFECYCLE_ERRORS.deleted);
    // False when a parallel DELETE began first: this one helps it finish.
    if (tenant.status !== 'deleted') await this.tenants.beginDeletion(id);
    let membersDetached = 0;
    for (let detached; (detached = await this.identity.detachTenantMembers(id, DELETION_BATCH_SIZE)) > 0;)
      membersDetached += detached;
    // Its custom roles go with the memberships (docs/roles.md), in bounded steps as well.
    let removed;
    do removed = await this.grants.removeTenantStep(id, DELETION_BATCH_SIZE);
    while (removed > 0);
    // The sessions the service issued for the organisation end with it.
    await this.sessions.endSessionsOf({ tenantId: id }, 'removed', actor);
    let invitationsRevoked = 0;
    for (let revoked; (revoked = await this.tenants.revokeOpenInvitations(id, DELETION_BATCH_SIZE)) > 0;)
      invitationsRevoked += revoked;
    const event = auditEvents.tenantDeleted(tenant, { membersDetached, invitationsRevoked }, actor);
    if (!(await this.tenants.finishDeletion(id, this.clock.now(), event))) {
      throw new ApiError(HttpStatus.CONFLICT, TENANT_LIFECYCLE_ERRORS.deleted);
    }
    return { success: true };
  }

  private async existing(id: string): Promise<TenantRecord> {
    const tenant = await this.tenants.find(id);
    if (!tenant) throw new ApiError(HttpStatus.NOT_FOUND, TENANT_LIFECYCLE_ERRORS.notFound);
    return tenant;
  }

  /**
   * Decides on the tenant as read, then writes with a compare-and-set on that state (`write`
   * answers false when it changed nothing). When another request changed the tenant in between,
   * the answer is the refusal of its state now.
   */
  private async transition<T>(
    id: string,
    refusal: Refusal,
    write: (tenant: TenantRecord) => Promise<T | false>,
  ): Promise<T> {
    const tenant = await this.existing(id);
    refuseIf(refusal(tenant));
    const written = await write(tenant);
    if (written !== false) return written;
    refuseIf(refusal(await this.existing(id)));
    throw new Error(`Tenant ${id} changed while it was being written`);
  }
}

function refuseIf(conflict: string | null): void {
  if (conflict) throw new ApiError(HttpStatus.CONFLICT, conflict);
}
