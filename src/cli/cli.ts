import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { CliModule } from './cli.module';
import { CliInputError, LocalUsersService, requireLocalStore } from './local-users.service';

const COMMAND_OPTIONS = {
  'users:create': {
    email: { type: 'string' },
    id: { type: 'string' },
    'platform-role': { type: 'string' },
    'user-type': { type: 'string' },
    'tenant-id': { type: 'string' },
    role: { type: 'string' },
  },
  'session:token': { user: { type: 'string' }, ttl: { type: 'string' } },
} as const;

type Command = keyof typeof COMMAND_OPTIONS;

/** Reads the configuration alone: no database, no identity store. */
async function loadConfig(): Promise<AppConfig> {
  const context = await NestFactory.createApplicationContext(ConfigModule, { logger: false, abortOnError: false });
  try {
    return context.get(AppConfig);
  } finally {
    await context.close();
  }
}

/** Runs one CLI command (CONTRACT: Operator CLI) and returns what it prints; bad input throws CliInputError. */
export async function runCli(argv: string[]): Promise<string> {
  const [command, ...rest] = argv;
  if (!command || !(command in COMMAND_OPTIONS)) {
    throw new CliInputError(`unknown command "${command ?? ''}"; commands: ${Object.keys(COMMAND_OPTIONS).join(', ')}`);
  }
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: COMMAND_OPTIONS[command as Command], strict: true }) as {
      values: Record<string, string | undefined>;
    });
  } catch (error) {
    throw new CliInputError((error as Error).message);
  }
  // In cognito mode refuse before the database or the pool is touched: the commands are local-only.
  requireLocalStore(await loadConfig(), command);
  const context = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
  try {
    const users = context.get(LocalUsersService);
    if (command === 'users:create') {
      if (!values.email) throw new CliInputError('--email is required');
      const user = await users.createUser({
        email: values.email,
        id: values.id,
        platformRole: values['platform-role'],
        userType: values['user-type'],
        tenantId: values['tenant-id'],
        role: values.role,
      });
      return JSON.stringify(user);
    }
    if (!values.user) throw new CliInputError('--user is required');
    const ttl = values.ttl === undefined ? undefined : /^\d+$/.test(values.ttl) ? Number(values.ttl) : NaN;
    return await users.sessionToken(values.user, ttl);
  } finally {
    await context.close();
  }
}
