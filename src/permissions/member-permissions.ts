import { HttpStatus, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { basePermissions, firstMissing } from './permission-catalogue';
import { GrantsStore, HeldRoles, RoleDefinition } from './grants.store';
import { ProductCatalogue } from './product-catalogue';
import { ROLE_ERRORS, RoleErrorCode, RoleErrorDetails, roleRefusal } from './role-errors';

/** A member of an organisation as authorisation sees it: the stored base role. */
export interface Member {
  id: string;
  tenantId: string;
  role: string | null;
}

/** Why a grant is refused: the status and body that roleRefusal gives it. */
export interface GrantRefusal {
  status: 403 | 422;
  error: RoleErrorCode;
  details: RoleErrorDetails;
}

/** What a member holds now: their custom roles, and every permission of those and of their base role. */
export interface EffectivePermissions extends HeldRoles {
  held: ReadonlySet<string>;
}

/**
 * A member's permissions as the guard would judge them now (docs/roles.md): the base role's (an
 * owner and an admin hold the product's whole catalogue) and the custom roles'. Also the rules of
 * granting a custom role, shared by the invitations, the member routes and the role routes.
 */
@Injectable()
export class MemberPermissions {
  constructor(
    private readonly grants: GrantsStore,
    private readonly catalogue: ProductCatalogue,
    private readonly config: AppConfig,
  ) {}

  /**
   * One indexed read of the member's roles (and the catalogue, at most once a second); none when
   * `read` gives them already (the guard read them beside the caller's record).
   */
  async of(member: Member, read?: HeldRoles): Promise<EffectivePermissions> {
    const [held, base] = await Promise.all([
      read ?? this.grants.heldBy(member.tenantId, member.id),
      this.baseOf(member.role),
    ]);
    return { ...held, held: new Set([...base, ...held.permissions]) };
  }

  /**
   * 403 ROLE_ESCALATION naming the first of `needed` that the caller does not hold: a caller gives,
   * takes away or defines only what it holds itself. The custom roles are read only when the base
   * role does not hold everything needed.
   */
  async refuseEscalation(caller: Member, needed: Iterable<string>): Promise<void> {
    const permissions = [...needed];
    if (!permissions.length || firstMissing(permissions, new Set(await this.baseOf(caller.role))) === null) return;
    const missing = firstMissing(permissions, (await this.of(caller)).held);
    if (missing !== null) throw roleRefusal(HttpStatus.FORBIDDEN, ROLE_ERRORS.escalation, { permission: missing });
  }

  /**
   * As refuseEscalation, for a change of base role: the caller holds every permission of the role
   * taken away and of the role given (owners and admins always do, between admin and member).
   */
  async refuseBaseRoleEscalation(caller: Member, roles: (string | null)[]): Promise<void> {
    const product = await this.catalogue.keys();
    await this.refuseEscalation(
      caller,
      roles.flatMap((role) => basePermissions(role, product)),
    );
  }

  /**
   * The custom roles that a grant or an invitation names, checked in this order: at most
   * ROLES_PER_MEMBER (422 MEMBER_ROLE_LIMIT), each a role of the tenant (422 UNKNOWN_ROLE, the first
   * that is not), each carrying only what the caller holds (403 ROLE_ESCALATION). `caller` null: a
   * super-admin, who may give any of the tenant's roles.
   */
  async grantable(tenantId: string, keys: string[], caller: Member | null): Promise<void> {
    const refusal = await this.grantChecker(tenantId, caller)(keys);
    if (refusal) throw roleRefusal(refusal.status, refusal.error, refusal.details);
  }

  /**
   * grantable's checks for several grants by one caller (the rows of a bulk invitation), each
   * answered with its refusal or null: the tenant's roles, and the caller's own when needed, read once.
   */
  grantChecker(tenantId: string, caller: Member | null): (keys: string[]) => Promise<GrantRefusal | null> {
    let roles: Promise<Map<string, RoleDefinition>> | undefined;
    let base: Promise<ReadonlySet<string>> | undefined;
    let held: Promise<ReadonlySet<string>> | undefined;
    return async (keys) => {
      if (!keys.length) return null;
      const limit = this.config.roles.perMember;
      if (keys.length > limit) return { status: 422, error: ROLE_ERRORS.memberLimit, details: { limit } };
      roles ??= this.grants.roles(tenantId).then((found) => new Map(found.map((role) => [role.key, role])));
      const byKey = await roles;
      const unknown = keys.find((key) => !byKey.has(key));
      if (unknown !== undefined) return { status: 422, error: ROLE_ERRORS.unknownRole, details: { role: unknown } };
      if (!caller) return null;
      const needed = keys.flatMap((key) => byKey.get(key)!.permissions);
      base ??= this.baseOf(caller.role).then((permissions) => new Set(permissions));
      if (firstMissing(needed, await base) === null) return null;
      held ??= this.of(caller).then((effective) => effective.held);
      const missing = firstMissing(needed, await held);
      return missing === null ? null : { status: 403, error: ROLE_ERRORS.escalation, details: { permission: missing } };
    };
  }

  /** The base role's permissions; the product's catalogue only for the roles that hold it. */
  private async baseOf(role: string | null): Promise<string[]> {
    return basePermissions(role, role === 'owner' || role === 'admin' ? await this.catalogue.keys() : []);
  }
}
