import { Injectable } from '@nestjs/common';
import { TenantResponse, toTenantResponse } from '../admin-tenants/dto/tenant.response';
import { TenantsStore } from '../admin-tenants/tenants.store';
import { auditEvents } from '../audit/audit-event';
import { AppConfig } from '../config/app-config';
import { IdentityStore, IdentityUser } from '../identity/identity-store';
import { CliInputError, LocalUsersService } from './local-users.service';
import { TenantRecordsService } from './tenant-records.service';

const DEMO_ROLES = ['owner', 'admin', 'member'] as const;
type DemoRole = (typeof DEMO_ROLES)[number];

export type DemoUser = IdentityUser & { token: string };
export type DemoSetup = { tenant: TenantResponse } & Record<DemoRole, DemoUser>;

/**
 * `dev:seed`: a demo organisation with an owner, an admin and a member, and a session token for
 * each, so that a newcomer can call every org route at once. The tenant is active, as after its
 * first owner's join (with the same tenant.activated event, the owner its actor). Running it again
 * reuses them and prints fresh tokens.
 */
@Injectable()
export class DevSeedService {
  constructor(
    private readonly config: AppConfig,
    private readonly users: LocalUsersService,
    private readonly records: TenantRecordsService,
    private readonly identity: IdentityStore,
    private readonly tenants: TenantsStore,
  ) {}

  async seed(ttlSeconds?: number): Promise<DemoSetup> {
    if (this.config.nodeEnv === 'production')
      throw new CliInputError('dev:seed makes demo users with known ids; refusing with NODE_ENV=production');
    const tenant = await this.demoTenant();
    const setup = { tenant } as DemoSetup;
    for (const role of DEMO_ROLES) {
      const user =
        (await this.identity.findById(`demo-${role}`)) ??
        (await this.users.createUser({
          id: `demo-${role}`,
          email: `${role}@demo.example`,
          userType: 'org',
          tenantId: tenant.id,
          role,
        }));
      setup[role] = { ...user, token: await this.users.sessionToken(user.id, ttlSeconds) };
    }
    if (tenant.status === 'pending_owner') setup.tenant = await this.activate(tenant, setup.owner);
    return setup;
  }

  /** What the first owner's join does to its tenant: pending_owner becomes active, with its event. */
  private async activate(tenant: TenantResponse, owner: IdentityUser): Promise<TenantResponse> {
    const event = auditEvents.tenantActivated(tenant.id, { id: owner.id, email: owner.email });
    await this.tenants.activate(tenant.id, event);
    return toTenantResponse((await this.tenants.find(tenant.id))!);
  }

  /** The owner's tenant when the demo exists already, else a new one. */
  private async demoTenant(): Promise<TenantResponse> {
    const owner = await this.identity.findById('demo-owner');
    const existing = owner?.tenantId ? await this.tenants.find(owner.tenantId) : null;
    return existing ? toTenantResponse(existing) : this.records.createTenant('Demo Organisation', 'organisation');
  }
}
