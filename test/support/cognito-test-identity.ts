import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserAttributesCommand,
  AdminInitiateAuthCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AttributeType,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { createSign, randomBytes } from 'node:crypto';
import { decode, sign } from 'jsonwebtoken';
import { CognitoIdentityStore } from '../../src/identity/cognito/cognito-identity-store';
import { SUPER_ADMIN_ROLE } from '../../src/identity/identity-store';
import { emulatorClient, EMULATOR_REGION, EMULATOR_SIGNING_KEY, SeededPool, seedUserPool } from './cognito-emulator';
import { signedJwt, TestIdentity, TestUser } from './test-identity';

/**
 * `cognito` mode: users are created in a cognito-local user pool through the admin API, and
 * signed in for real (AdminInitiateAuth) to get the pool's own RS256 id token.
 *
 * Each test database gets its own pool, so that suites running side by side do not see each
 * other's users (super-admin listings would), while app instances sharing a database share it.
 */
export class CognitoTestIdentity implements TestIdentity {
  readonly mode = 'cognito' as const;
  readonly env: Record<string, string>;
  /** Every test user signs in with this password. */
  private readonly password = `E2e-${randomBytes(9).toString('base64url')}-Aa1!`;

  private constructor(
    private readonly client: CognitoIdentityProviderClient,
    readonly endpoint: string,
    readonly pool: SeededPool,
  ) {
    this.env = {
      IDENTITY_STORE: 'cognito',
      COGNITO_ENDPOINT: endpoint,
      COGNITO_USER_POOL_ID: pool.userPoolId,
      COGNITO_CLIENT_ID: pool.clientId,
      COGNITO_SUPER_ADMIN_GROUP: pool.superAdminGroup,
      AWS_REGION: EMULATOR_REGION,
    };
  }

  private static readonly pools = new Map<string, Promise<CognitoTestIdentity>>();

  /** The test identity of a test database: a pool seeded on first use. */
  static forDatabase(databaseUrl: string): Promise<CognitoTestIdentity> {
    let identity = this.pools.get(databaseUrl);
    if (!identity) {
      const endpoint = process.env.E2E_COGNITO_ENDPOINT;
      if (!endpoint) {
        throw new Error(
          'E2E_IDENTITY=cognito needs the emulator that the e2e:cognito jest project starts: run `npx jest --selectProjects e2e:cognito`',
        );
      }
      const client = emulatorClient(endpoint);
      identity = seedUserPool(client).then((pool) => new CognitoTestIdentity(client, endpoint, pool));
      this.pools.set(databaseUrl, identity);
    }
    return identity;
  }

  /**
   * AdminCreateUser with the record's attributes, a permanent password, the group for a
   * super-admin, and the tenant's group for a user with a tenant, as an operator provisions users
   * (README "Managing an organisation"); `withoutTenantGroup` makes one who joined outside that.
   */
  async createUser(user: TestUser, { withoutTenantGroup = false } = {}): Promise<void> {
    const attributes: AttributeType[] = [
      { Name: 'email', Value: user.email },
      { Name: 'email_verified', Value: 'true' },
    ];
    const custom: [string, string | null][] = [
      ['custom:platform_role', user.platformRole],
      ['custom:user_type', user.userType],
      ['custom:tenant_id', user.tenantId],
      ['custom:role', user.role],
    ];
    for (const [Name, Value] of custom) if (Value) attributes.push({ Name, Value });
    const { userPoolId } = this.pool;
    await this.client.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: user.id,
        UserAttributes: attributes,
        MessageAction: 'SUPPRESS',
      }),
    );
    await this.client.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: userPoolId,
        Username: user.id,
        Password: this.password,
        Permanent: true,
      }),
    );
    if (user.platformRole === SUPER_ADMIN_ROLE) {
      await this.client.send(
        new AdminAddUserToGroupCommand({
          UserPoolId: userPoolId,
          Username: user.id,
          GroupName: this.pool.superAdminGroup,
        }),
      );
    }
    if (user.tenantId && !withoutTenantGroup) await this.store().joinTenantGroup(user.id, user.tenantId);
  }

  /** The service's own store on this pool: how users join a tenant's group. */
  store(): CognitoIdentityStore {
    return new CognitoIdentityStore(this.client, {
      userPoolId: this.pool.userPoolId,
      superAdminGroup: this.pool.superAdminGroup,
    });
  }

  async updateUser(id: string, changes: Partial<Pick<TestUser, 'userType' | 'tenantId' | 'role'>>): Promise<void> {
    const names = { userType: 'custom:user_type', tenantId: 'custom:tenant_id', role: 'custom:role' } as const;
    const entries = Object.entries(changes) as [keyof typeof names, string | null][];
    const set = entries
      .filter(([, value]) => value !== null)
      .map(([field, value]) => ({ Name: names[field], Value: value! }));
    const cleared = entries.filter(([, value]) => value === null).map(([field]) => names[field]);
    const target = { UserPoolId: this.pool.userPoolId, Username: id };
    if (set.length) await this.client.send(new AdminUpdateUserAttributesCommand({ ...target, UserAttributes: set }));
    if (cleared.length)
      await this.client.send(new AdminDeleteUserAttributesCommand({ ...target, UserAttributeNames: cleared }));
  }

  /** Sets the user's `email_verified` attribute (cognito-local's id token says true whatever it holds). */
  async setEmailVerified(user: Pick<TestUser, 'id' | 'email'>, verified: boolean): Promise<void> {
    await this.client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: this.pool.userPoolId,
        Username: user.id,
        UserAttributes: [
          { Name: 'email', Value: user.email },
          { Name: 'email_verified', Value: String(verified) },
        ],
      }),
    );
  }

  get issuerClaims(): Record<string, string> {
    return { iss: `${this.endpoint}/${this.pool.userPoolId}`, aud: this.pool.clientId };
  }

  /** Signed with the emulator's own key, under its key id: what the pool's JWKS verifies. */
  signedPayload(payload: unknown): string {
    return signedJwt({ alg: 'RS256', typ: 'JWT', kid: EMULATOR_SIGNING_KEY.jwk.kid }, payload, (input) =>
      createSign('RSA-SHA256').update(input).sign(EMULATOR_SIGNING_KEY.pem),
    );
  }

  /**
   * A real sign-in: the pool's id token. The app client's id tokens live an hour; for another
   * lifetime (an expired token, say) the sign-in's claims are signed again with the emulator's
   * own key, with `iat`/`exp` moved: the token the emulator would issue with that validity.
   */
  async sessionToken(user: TestUser, ttlSeconds?: number): Promise<string> {
    const token = (await this.signIn(user.id)).IdToken!;
    const { header, payload } = decode(token, { complete: true }) as {
      header: { kid?: string };
      payload: Record<string, number>;
    };
    if (ttlSeconds === undefined || payload.exp - payload.iat === ttlSeconds) return token;
    const now = Math.floor(Date.now() / 1000);
    return sign({ ...payload, iat: now, exp: now + ttlSeconds }, EMULATOR_SIGNING_KEY.pem, {
      algorithm: 'RS256',
      keyid: header.kid,
    });
  }

  /** All the tokens of a real sign-in (id, access, refresh). */
  async signIn(username: string) {
    const result = await this.client.send(
      new AdminInitiateAuthCommand({
        UserPoolId: this.pool.userPoolId,
        ClientId: this.pool.clientId,
        AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: username, PASSWORD: this.password },
      }),
    );
    if (!result.AuthenticationResult?.IdToken) {
      throw new Error(`Sign-in of ${username} returned no tokens (challenge ${result.ChallengeName ?? 'none'})`);
    }
    return result.AuthenticationResult;
  }
}
