import { randomUUID } from 'node:crypto';
import { emailKey } from '../../src/common/email-comparison';
import { InvitationEntity, TenantEntity } from '../../src/database/entities';
import { TestApp } from './test-app';
import { TestUser } from './test-identity';

let sequence = 0;
const next = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

/**
 * Test data with overrides: `factory.member(tenantId, { role: 'admin' })`. Users go through the
 * test identity (local table or Cognito pool); tenants and invitations are rows in our database.
 * Reads `t` only when called, so that a suite may make its factory before its app has started
 * (see useTestApp).
 */
export function factories(t: TestApp) {
  return {
    async user(overrides: Partial<TestUser> = {}): Promise<TestUser> {
      const user: TestUser = {
        id: `user-${next()}`,
        email: `user-${next()}@example.com`,
        platformRole: null,
        userType: null,
        tenantId: null,
        role: null,
        ...overrides,
      };
      await t.testIdentity.createUser(user);
      return user;
    },
    async superAdmin(overrides: Partial<TestUser> = {}): Promise<TestUser> {
      return this.user({ platformRole: 'super_admin', ...overrides });
    },
    async tenant(overrides: Partial<TenantEntity> = {}): Promise<TenantEntity> {
      const row: TenantEntity = {
        id: randomUUID(),
        name: `Tenant ${next()}`,
        type: 'organisation',
        status: 'pending_owner',
        createdAt: new Date(),
        ...overrides,
      };
      await t.dataSource.getRepository(TenantEntity).insert(row);
      return row;
    },
    /** An org user (owner by default) of a tenant. */
    async member(tenantId: string, overrides: Partial<TestUser> = {}): Promise<TestUser> {
      return this.user({ userType: 'org', tenantId, role: 'owner', ...overrides });
    },
    async invitation(overrides: Partial<InvitationEntity> = {}): Promise<InvitationEntity> {
      const now = new Date();
      const row: InvitationEntity = {
        id: randomUUID(),
        tenantId: randomUUID(),
        email: `invitee-${next()}@example.com`,
        role: 'member',
        status: 'pending',
        expiresAt: new Date(now.getTime() + 7 * 24 * 3600 * 1000),
        invitedBy: 'inviter',
        createdAt: now,
        ...overrides,
      };
      await t.dataSource.getRepository(InvitationEntity).insert({ ...row, emailKey: emailKey(row.email) });
      return row;
    },
  };
}

/** The `Cookie` header value that signs a user in, with a token as the portal (or the user pool) signs it: no `sid`. */
export async function sessionCookie(t: TestApp, user: TestUser, ttlSeconds = 3600): Promise<string> {
  return `${t.config.sessionCookieName}=${await t.testIdentity.sessionToken(user, ttlSeconds)}`;
}
