import { PreparedStatements } from '../../src/database/prepared-statements';
import { GrantsStore } from '../../src/permissions/grants.store';

/**
 * The members' custom roles in memory, for unit tests without a database: what the removals take
 * away and the lists show. The other reads are the real store's, on no database: a test that
 * reaches one fails.
 */
export class MemoryGrantsStore extends GrantsStore {
  /** By `tenant:user`. */
  readonly memberRoles = new Map<string, string[]>();

  constructor() {
    super(undefined as unknown as PreparedStatements);
  }

  hold(tenantId: string, userId: string, roles: string[]): void {
    this.memberRoles.set(`${tenantId}:${userId}`, [...roles].sort());
  }

  override async removeMember(tenantId: string, userId: string): Promise<string[]> {
    const roles = this.memberRoles.get(`${tenantId}:${userId}`) ?? [];
    this.memberRoles.delete(`${tenantId}:${userId}`);
    return roles;
  }

  override async rolesOfMembers(tenantId: string, userIds: string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (const id of userIds) {
      const roles = this.memberRoles.get(`${tenantId}:${id}`);
      if (roles) found.set(id, roles);
    }
    return found;
  }
}
