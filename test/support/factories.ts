import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SessionTokenIssuer } from '../../src/auth/session-token-issuer';
import { InvitationEntity, TenantEntity, UserEntity } from '../../src/database/entities';
import { TestApp } from './test-app';

let sequence = 0;
const next = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

/** Rows written straight to the database, with overrides: `factory.user({ role: 'admin' })`. */
export function factories(dataSource: DataSource) {
  return {
    async user(overrides: Partial<UserEntity> = {}): Promise<UserEntity> {
      const row: UserEntity = {
        id: `user-${next()}`,
        email: `user-${next()}@example.com`,
        platformRole: null,
        userType: null,
        tenantId: null,
        role: null,
        createdAt: new Date(),
        ...overrides,
      };
      await dataSource.getRepository(UserEntity).insert(row);
      return row;
    },
    async superAdmin(overrides: Partial<UserEntity> = {}): Promise<UserEntity> {
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
      await dataSource.getRepository(TenantEntity).insert(row);
      return row;
    },
    /** An org user (owner by default) of a tenant. */
    async member(tenantId: string, overrides: Partial<UserEntity> = {}): Promise<UserEntity> {
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
      await dataSource.getRepository(InvitationEntity).insert(row);
      return row;
    },
  };
}

/** The `Cookie` header value that signs a user in, with a token made from the user's record. */
export function sessionCookie(testApp: TestApp, user: UserEntity, ttlSeconds = 3600): string {
  const token = testApp.app.get(SessionTokenIssuer).issue(user, ttlSeconds);
  return `${testApp.config.sessionCookieName}=${token}`;
}
