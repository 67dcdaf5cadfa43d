import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { emailKey } from '../../src/common/email-comparison';
import { UserEntity } from '../../src/database/entities';
import { IdentityUser } from '../../src/identity/identity-store';
import { portalToken } from './portal-token';

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
  /** Changes the user's tenant, role or user type in the store, as an operator would; null clears. */
  updateUser(id: string, changes: Partial<Pick<TestUser, 'userType' | 'tenantId' | 'role'>>): Promise<void>;
  /**
   * A session id token for the user as the portal (local mode: HS256 with AUTH_JWT_SECRET, no `sid`) or
   * the user pool makes it: the tokens of the spec's suites (docs/sessions.md covers the service's own).
   */
  sessionToken(user: TestUser, ttlSeconds?: number): Promise<string>;
  /**
   * A token signed with the real issuer's key whose payload is exactly `payload` (any JSON value)
   * and nothing else: how a forger holding the key, or a buggy issuer, would make one.
   */
  signedPayload(payload: unknown): string;
  /** The claims the issuer puts in every token of this mode (issuer and audience in cognito mode). */
  readonly issuerClaims: Record<string, string>;
  /** Extra environment for the app under test. */
  readonly env: Record<string, string>;
}

/** A JWT with exactly this header and payload; `signature` signs `<header>.<payload>`. */
export function signedJwt(header: object, payload: unknown, signature: (input: string) => Buffer): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${signature(input).toString('base64url')}`;
}

export const e2eIdentityMode = (): 'local' | 'cognito' =>
  process.env.E2E_IDENTITY === 'cognito' ? 'cognito' : 'local';

// A test for one identity mode is not defined in the other mode's project: not skipped, not applicable.
const notApplicable = (() => undefined) as unknown;
// Read from globalThis: the benchmarks load this module outside Jest, where `it` is not defined.
const jestIt = (globalThis as { it?: jest.It }).it as jest.It;
const jestDescribe = (globalThis as { describe?: jest.Describe }).describe as jest.Describe;
/** `it` in the cognito projects, nothing elsewhere. */
export const cognitoOnly = e2eIdentityMode() === 'cognito' ? jestIt : (notApplicable as jest.It);
/** `it` in the local projects, nothing elsewhere. */
export const localOnly = e2eIdentityMode() === 'local' ? jestIt : (notApplicable as jest.It);
/** `describe` in the cognito projects, nothing elsewhere. */
export const describeCognitoOnly = e2eIdentityMode() === 'cognito' ? jestDescribe : (notApplicable as jest.Describe);

/** `local` mode: rows in the users table, tokens signed as the portal signs them (AUTH_JWT_SECRET). */
export class LocalTestIdentity implements TestIdentity {
  readonly mode = 'local' as const;
  readonly env = { IDENTITY_STORE: 'local' };
  private dataSource?: DataSource;
  private secret?: string;

  attach(dataSource: DataSource, secret: string): void {
    this.dataSource = dataSource;
    this.secret = secret;
  }

  async createUser(user: TestUser): Promise<void> {
    await this.dataSource!.getRepository(UserEntity).insert({
      ...user,
      emailKey: emailKey(user.email),
      createdAt: new Date(),
    });
  }

  async updateUser(id: string, changes: Partial<Pick<TestUser, 'userType' | 'tenantId' | 'role'>>): Promise<void> {
    await this.dataSource!.getRepository(UserEntity).update({ id }, changes);
  }

  async sessionToken(user: TestUser, ttlSeconds = 3600): Promise<string> {
    return portalToken(user, this.secret!, ttlSeconds);
  }

  readonly issuerClaims = {};

  signedPayload(payload: unknown): string {
    return signedJwt({ alg: 'HS256', typ: 'JWT' }, payload, (input) =>
      createHmac('sha256', this.secret!).update(input).digest(),
    );
  }
}
