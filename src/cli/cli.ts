import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs, ParseArgsConfig } from 'node:util';
import { TENANT_TYPES } from '../database/entities/tenant.entity';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { CognitoIdentityStore } from '../identity/cognito/cognito-identity-store';
import { IdentityStore } from '../identity/identity-store';
import { SsoSecretsRotation } from '../sso/sso-secrets-rotation';
import { CliModule } from './cli.module';
import { DevSeedService } from './dev-seed.service';
import { CliInputError, LocalUsersService, requireLocalStore } from './local-users.service';
import { CLI_INVITER, TenantRecordsService } from './tenant-records.service';

type Values = Record<string, string | undefined>;

interface Command {
  /** The options, as the usage line shows them. */
  usage: string;
  description: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Works on the `local` identity store only (users and tokens); refused in cognito mode. */
  localOnly: boolean;
  /** Returns what the command prints on stdout. */
  run(app: INestApplicationContext, values: Values): Promise<string>;
}

const required = (values: Values, option: string): string => {
  const value = values[option];
  if (!value) throw new CliInputError(`--${option} is required`);
  return value;
};

/** --ttl: a whole number of seconds, range-checked by LocalUsersService. */
const ttlOf = (values: Values): number | undefined =>
  values.ttl === undefined ? undefined : /^\d+$/.test(values.ttl) ? Number(values.ttl) : NaN;

const COMMANDS: Record<string, Command> = {
  'users:create': {
    usage:
      '--email E [--id ID] [--platform-role super_admin] [--user-type org] [--tenant-id T] [--role owner|admin|member]',
    description:
      'Creates a user in the local identity store (e-mail lower-cased, id a UUID unless given); prints it as one line of JSON.',
    options: {
      email: { type: 'string' },
      id: { type: 'string' },
      'platform-role': { type: 'string' },
      'user-type': { type: 'string' },
      'tenant-id': { type: 'string' },
      role: { type: 'string' },
    },
    localOnly: true,
    run: async (app, values) =>
      JSON.stringify(
        await app.get(LocalUsersService).createUser({
          email: required(values, 'email'),
          id: values.id,
          platformRole: values['platform-role'],
          userType: values['user-type'],
          tenantId: values['tenant-id'],
          role: values.role,
        }),
      ),
  },
  'session:token': {
    usage: '--user ID [--ttl SECONDS] [--email-verified]',
    description:
      "Prints a signed session id token for the user (default 3600 s), claims from the user's record; " +
      '--email-verified adds email_verified: true (needed to join by a verified domain, docs/domains.md).',
    options: { user: { type: 'string' }, ttl: { type: 'string' }, 'email-verified': { type: 'boolean' } },
    localOnly: true,
    run: (app, values) =>
      app
        .get(LocalUsersService)
        .sessionToken(required(values, 'user'), ttlOf(values), (values['email-verified'] as unknown) === true),
  },
  'tenants:create': {
    usage: `--name NAME --type ${TENANT_TYPES.join('|')}`,
    description:
      'Creates a tenant (status pending_owner), by the rules of POST /api/admin/tenants; prints it as one line of JSON.',
    options: { name: { type: 'string' }, type: { type: 'string' } },
    localOnly: false,
    run: async (app, values) =>
      JSON.stringify(await app.get(TenantRecordsService).createTenant(values.name, values.type)),
  },
  'tenants:invite-owner': {
    usage: '--tenant-id T --email E [--role owner|admin|member]',
    description:
      'Invites E into tenant T (default role owner), by the rules of POST /api/admin/tenants/{id}/invitations: ' +
      'for the very first owner, when no super-admin session is at hand. The invitation is stored, e-mailed and ' +
      `audited with invitedBy ${CLI_INVITER.id}; prints it with its link as one line of JSON.`,
    options: { 'tenant-id': { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    localOnly: false,
    run: async (app, values) =>
      JSON.stringify(
        await app
          .get(TenantRecordsService)
          .inviteOwner(required(values, 'tenant-id'), values.email, values.role ?? 'owner'),
      ),
  },
  'tenants:suspend': {
    usage: '--id T [--reason R]',
    description:
      "Suspends a tenant, as POST /api/admin/tenants/{id}/suspend: its members' org routes, its invitations and its " +
      'e-mails wait until it is reactivated; prints it as one line of JSON.',
    options: { id: { type: 'string' }, reason: { type: 'string' } },
    localOnly: false,
    run: async (app, values) =>
      JSON.stringify(await app.get(TenantRecordsService).suspendTenant(required(values, 'id'), values.reason)),
  },
  'tenants:reactivate': {
    usage: '--id T',
    description:
      'Gives a suspended tenant back the status it had before (active or pending_owner); prints it as one line of JSON.',
    options: { id: { type: 'string' } },
    localOnly: false,
    run: async (app, values) =>
      JSON.stringify(await app.get(TenantRecordsService).reactivateTenant(required(values, 'id'))),
  },
  'tenants:delete': {
    usage: '--id T',
    description:
      'Deletes a tenant, as DELETE /api/admin/tenants/{id}: members detached (accounts kept), open invitations revoked, ' +
      'the row kept with status deleted; prints it as one line of JSON.',
    options: { id: { type: 'string' } },
    localOnly: false,
    run: async (app, values) =>
      JSON.stringify(await app.get(TenantRecordsService).deleteTenant(required(values, 'id'))),
  },
  'users:list': {
    usage: '--tenant T',
    description: 'Prints the users of a tenant from the users table, one line of JSON each (nothing when it has none).',
    options: { tenant: { type: 'string' } },
    localOnly: true,
    run: async (app, values) =>
      (await app.get(LocalUsersService).listTenantUsers(required(values, 'tenant')))
        .map((user) => JSON.stringify(user))
        .join('\n'),
  },
  'invitations:expire': {
    usage: '--id TOKEN',
    description:
      "Moves an invitation's expiry into the past, so that it answers EXPIRED (its status " +
      'changes on the next GET); prints it as one line of JSON.',
    options: { id: { type: 'string' } },
    localOnly: false,
    run: async (app, values) =>
      JSON.stringify(await app.get(TenantRecordsService).expireInvitation(required(values, 'id'))),
  },
  'cognito:sync-tenant-groups': {
    usage: '',
    description:
      'Cognito mode only: puts every pool user with custom:tenant_id into the group tenant_<tenant id> that lists the ' +
      "tenant's members, and takes out group members whose attribute says otherwise; safe to repeat. Run it after " +
      'giving users a tenant outside the service. Prints {"joined":N,"left":N}.',
    options: {},
    localOnly: false,
    run: async (app) => {
      const identity = app.get(IdentityStore);
      if (!(identity instanceof CognitoIdentityStore)) {
        throw new CliInputError(
          'cognito:sync-tenant-groups works only with IDENTITY_STORE=cognito: the local store needs no groups',
        );
      }
      return JSON.stringify(await identity.syncTenantGroups());
    },
  },
  'sso:rotate-secrets': {
    usage: '',
    description:
      'Seals every stored OIDC client secret again under the first key of SSO_SECRETS_KEY (new,old: written with the ' +
      'first, read with any), so that the old keys can be dropped; safe to repeat. Prints ' +
      '{"rewritten":N,"alreadyCurrent":N,"unreadable":N,"unreadableConnections":[…]}: an unreadable secret (no key ' +
      'opens it) is left as it is, for its owner to re-enter.',
    options: {},
    localOnly: false,
    run: async (app) => {
      if (app.get(AppConfig).sso.secretsKey === null)
        throw new CliInputError('SSO_SECRETS_KEY is not set: there is no key to seal the secrets with');
      return JSON.stringify(await app.get(SsoSecretsRotation).rotate());
    },
  },
  'dev:seed': {
    usage: '[--ttl SECONDS]',
    description:
      'Development only: a demo tenant with an owner, an admin and a member (ids demo-owner, demo-admin, demo-member), ' +
      'made once; prints them with fresh session tokens as one line of JSON: {"tenant":…,"owner":{…,"token":…},"admin":…,"member":…}.',
    options: { ttl: { type: 'string' } },
    localOnly: true,
    run: async (app, values) => JSON.stringify(await app.get(DevSeedService).seed(ttlOf(values))),
  },
};

const HELP_FLAGS = ['help', '--help', '-h'];

function commandHelp(name: string): string {
  const { usage, description, localOnly } = COMMANDS[name];
  return `${[name, usage].filter(Boolean).join(' ')}\n    ${description}${localOnly ? ' Local identity store only.' : ''}`;
}

/** `--help`, `help`, `help COMMAND` and `COMMAND --help`. */
export function usage(command?: string): string {
  if (command !== undefined) {
    if (!Object.hasOwn(COMMANDS, command)) throw unknownCommand(command);
    return `Usage: npm run -s cli -- ${commandHelp(command)}`;
  }
  return [
    'Usage: npm run -s cli -- <command> [options]   (or: node dist/src/cli/main.js <command> [options])',
    '',
    'The operator CLI, with the same configuration (environment, .env) as the server. It prints',
    'its result on stdout and exits 0; bad input prints one line on stderr and exits 1.',
    '',
    'Commands:',
    ...Object.keys(COMMANDS).map((name) => `  ${commandHelp(name).replace('\n', '\n  ')}`),
    '  help [COMMAND]',
    '      Prints this text (as does no command at all), or the usage of one command.',
  ].join('\n');
}

const unknownCommand = (command: string) =>
  new CliInputError(`unknown command "${command}"; commands: ${Object.keys(COMMANDS).join(', ')} (see --help)`);

/** Reads the configuration alone: no database, no identity store. */
async function loadConfig(): Promise<AppConfig> {
  const context = await NestFactory.createApplicationContext(ConfigModule.fromEnvironment(), {
    logger: false,
    abortOnError: false,
  });
  try {
    return context.get(AppConfig);
  } finally {
    await context.close();
  }
}

/** Runs one CLI command (README, "The operator CLI") and returns what it prints; bad input throws CliInputError. */
export async function runCli(argv: string[]): Promise<string> {
  const [name, ...rest] = argv;
  // No command at all asks what there is, as with gh, docker or kubectl: the help, exit 0.
  if (name === undefined) return usage();
  if (HELP_FLAGS.includes(name)) return usage(rest[0]);
  if (!Object.hasOwn(COMMANDS, name)) throw unknownCommand(name);
  const command = COMMANDS[name];
  if (rest.some((arg) => HELP_FLAGS.slice(1).includes(arg))) return usage(name);
  let values: Values;
  try {
    ({ values } = parseArgs({ args: rest, options: command.options, strict: true }) as { values: Values });
  } catch (error) {
    throw new CliInputError((error as Error).message);
  }
  // In cognito mode refuse before the database or the pool is touched.
  if (command.localOnly) requireLocalStore(await loadConfig(), name);
  const context = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
  try {
    return await command.run(context, values);
  } finally {
    await context.close();
  }
}
