import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { CliModule } from './cli.module';
import { CliInputError, LocalUsersService } from './local-users.service';

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

async function run(argv: string[]): Promise<string> {
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

run(process.argv.slice(2)).then(
  (output) => process.stdout.write(`${output}\n`),
  (error: Error) => {
    const message = error instanceof CliInputError ? error.message : `error: ${error.message}`;
    process.stderr.write(`${message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exitCode = 1;
  },
);
