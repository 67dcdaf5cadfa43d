import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { SessionTokenIssuer } from '../auth/session-token-issuer';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { userPoolOf } from '../config/identity-config';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { IdentityStore, IdentityUser, SUPER_ADMIN_ROLE, TENANT_ROLES } from '../identity/identity-store';
import { LocalIdentityStore } from '../identity/local/local-identity-store';

export interface NewLocalUser {
  email: string;
  id?: string;
  platformRole?: string;
  userType?: string;
  tenantId?: string;
  role?: string;
}

/** Bad operator input: printed as one line, exit code 1. */
export class CliInputError extends Error {}

const MAX_TTL_SECONDS = 30 * 24 * 3600;

/** The operator CLI's commands over the `local` identity store. */
@Injectable()
export class LocalUsersService {
  constructor(
    private readonly config: AppConfig,
    private readonly tenants: TenantStatusReader,
    private readonly identity: IdentityStore,
    private readonly tokens: SessionTokenIssuer,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** The users of a tenant in the `users` table, by id (none in cognito mode, whose users live in the pool). */
  async listTenantUsers(tenantId: string): Promise<IdentityUser[]> {
    return this.identity instanceof LocalIdentityStore ? this.identity.usersOfTenant(tenantId) : [];
  }

  async createUser(input: NewLocalUser): Promise<IdentityUser> {
    this.requireLocalStore('users:create');
    const email = input.email?.trim().toLowerCase();
    if (!email || !isEmail(email))
      throw new CliInputError(`--email must be an e-mail address, got "${input.email ?? ''}"`);
    const id = input.id ?? this.ids.uuid();
    if (!/^[\w.@+-]{1,128}$/.test(id))
      throw new CliInputError(`--id must be 1 to 128 letters, digits or . _ @ + -, got "${id}"`);
    if (input.platformRole !== undefined && input.platformRole !== SUPER_ADMIN_ROLE) {
      throw new CliInputError(`--platform-role must be ${SUPER_ADMIN_ROLE}, got "${input.platformRole}"`);
    }
    if (input.userType !== undefined && input.userType !== 'org') {
      throw new CliInputError(`--user-type must be org, got "${input.userType}"`);
    }
    if (input.role !== undefined && !(TENANT_ROLES as readonly string[]).includes(input.role)) {
      throw new CliInputError(`--role must be one of ${TENANT_ROLES.join(', ')}, got "${input.role}"`);
    }
    if (input.tenantId !== undefined && !/^[\w-]{1,128}$/.test(input.tenantId)) {
      throw new CliInputError(`--tenant-id must be 1 to 128 letters, digits, _ or -, got "${input.tenantId}"`);
    }
    // The organisation routes take a user of a tenant only as an org user (spec section 5): refuse
    // what would make a member that they then refuse, or a role or tenant that belongs to nothing.
    if (input.role !== undefined && input.tenantId === undefined) {
      throw new CliInputError('--role needs --tenant-id: a role is held in a tenant');
    }
    if (input.tenantId !== undefined && input.userType !== 'org') {
      throw new CliInputError(
        '--tenant-id needs --user-type org: the organisation routes refuse any other user of a tenant',
      );
    }
    if (input.tenantId !== undefined && (await this.tenants.statusOf(input.tenantId)) === null) {
      throw new CliInputError(`no tenant with id "${input.tenantId}" (tenants:create makes one)`);
    }
    if (await this.identity.findById(id)) throw new CliInputError(`a user with id "${id}" already exists`);
    if ((await this.identity.findByEmail(email)).length) {
      throw new CliInputError(`a user with e-mail "${email}" already exists`);
    }
    await this.localStore().insertUser(
      {
        id,
        email,
        platformRole: input.platformRole ?? null,
        userType: input.userType ?? null,
        tenantId: input.tenantId ?? null,
        role: input.role ?? null,
      },
      this.clock.now(),
    );
    return (await this.identity.findById(id))!;
  }

  async sessionToken(userId: string, ttlSeconds = 3600, emailVerified = false): Promise<string> {
    this.requireLocalStore('session:token');
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS) {
      throw new CliInputError(`--ttl must be a whole number of seconds from 1 to ${MAX_TTL_SECONDS}`);
    }
    const user = await this.identity.findById(userId);
    if (!user) throw new CliInputError(`no user with id "${userId}"`);
    return (await this.tokens.issue(user, { kind: 'cli', ttlSeconds, emailVerified })).token;
  }

  private requireLocalStore(command: string): void {
    requireLocalStore(this.config, command);
  }

  /** The local store, which requireLocalStore has made sure of. */
  private localStore(): LocalIdentityStore {
    if (!(this.identity instanceof LocalIdentityStore)) throw new CliInputError('the identity store is not local');
    return this.identity;
  }
}

/** The CLI's commands manage the `local` store only; in cognito mode users live in the pool. */
export function requireLocalStore(config: Pick<AppConfig, 'identityStore' | 'cognito'>, command: string): void {
  if (userPoolOf(config)) {
    throw new CliInputError(
      `${command} works only with IDENTITY_STORE=local; in cognito mode manage users in the pool and sign in to get a token`,
    );
  }
}
