import { DataSource } from 'typeorm';
import { SessionTokenIssuer } from '../../src/auth/session-token-issuer';
import { emailKey } from '../../src/common/email-comparison';
import { UserEntity } from '../../src/database/entities';
import { IdentityUser } from '../../src/identity/identity-store';

/** A user as the tests create it; the fields of the identity store's record. */
export type TestUser = IdentityUser;

/**
 * How the e2e suites put users into the identity store and sign them in, whichever backend
 * the app runs on. Suites never touch the `users` table directly: they read users back
 * through the app's IdentityStore, so that the same suite runs in local and Cognito mode.
 */
export interface TestIdentity {
  readonly mode: 'local' | 'cognito';
  createUser(user: TestUser): Promise<void>;
  /** A session id token for the user, as the real issuer makes it. */
  sessionToken(user: TestUser, ttlSeconds?: number): Promise<string>;
  /** Extra environment for the app under test. */
  readonly env: Record<string, string>;
}

export const e2eIdentityMode = (): 'local' | 'cognito' =>
  process.env.E2E_IDENTITY === 'cognito' ? 'cognito' : 'local';

/** `local` mode: rows in the users table, tokens signed by the app's own SessionTokenIssuer. */
export class LocalTestIdentity implements TestIdentity {
  readonly mode = 'local' as const;
  readonly env = { IDENTITY_STORE: 'local' };
  private dataSource?: DataSource;
  private issuer?: SessionTokenIssuer;

  attach(dataSource: DataSource, issuer: SessionTokenIssuer): void {
    this.dataSource = dataSource;
    this.issuer = issuer;
  }

  async createUser(user: TestUser): Promise<void> {
    await this.dataSource!.getRepository(UserEntity).insert({ ...user, emailKey: emailKey(user.email), createdAt: new Date() });
  }

  async sessionToken(user: TestUser, ttlSeconds = 3600): Promise<string> {
    return this.issuer!.issue(user, ttlSeconds);
  }
}
