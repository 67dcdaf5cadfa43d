import {
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { freePort } from './server-process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The `cognito-local` emulator as a child process: one per jest project (see
 * cognito-global-setup.ts), on a free loopback port, from a fresh temp directory
 * (it keeps its configuration and data in `.cognito/` under its working directory).
 */
export interface CognitoEmulator {
  endpoint: string;
  pid: number;
  stop(): Promise<void>;
}

/** Region for the SDK clients; the emulator ignores it, the issuer uses COGNITO_ENDPOINT instead. */
export const EMULATOR_REGION = 'us-east-1';
/** The emulator checks no signatures, but the SDK needs credentials to sign with. */
export const EMULATOR_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

const START_TIMEOUT_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function healthy(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1_000) });
    return res.ok;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
}

/** To stop an emulator and start it again with its pools: the same port (so the same endpoint and issuer) and directory. */
export interface EmulatorPlace {
  port: number;
  /** Kept by `stop()`: the caller removes it. */
  dir: string;
}

async function startOnce(place?: EmulatorPlace): Promise<CognitoEmulator & { log: () => string }> {
  const dir = place?.dir ?? mkdtempSync(join(tmpdir(), 'cognito-local-'));
  const port = place?.port ?? (await freePort());
  const endpoint = `http://127.0.0.1:${port}`;
  if (!existsSync(join(dir, '.cognito'))) mkdirSync(join(dir, '.cognito'));
  writeFileSync(
    join(dir, '.cognito', 'config.json'),
    JSON.stringify({
      // The emulator's default makes the e-mail the username; our pools keep Username and email apart.
      UserPoolDefaults: { UsernameAttributes: [] },
      // The issuer of its tokens is `<IssuerDomain>/<pool id>`, as cognitoIssuer expects.
      TokenConfig: { IssuerDomain: endpoint },
    }),
  );
  const logFile = join(dir, 'cognito-local.log');
  const logFd = openSync(logFile, 'a');
  const startScript = require.resolve('cognito-local/lib/bin/start.js');
  // A small wrapper exits with its parent (IPC disconnect), so that a killed test run leaves no emulator behind.
  const child = spawn(
    process.execPath,
    ['-e', `process.on('disconnect', () => process.exit(0)); require(${JSON.stringify(startScript)});`],
    {
      cwd: dir,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DEBUG: '', COGNITO_LOCAL_DEVMODE: '' },
      stdio: ['ignore', logFd, logFd, 'ipc'],
    },
  );
  closeSync(logFd);
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8').slice(-4_000);
    } catch {
      return '';
    }
  };
  const stop = async () => {
    await stopChild(child);
    if (!place) rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await healthy(endpoint))) {
    if (exited(child) || Date.now() > deadline) {
      const output = log();
      await stop();
      throw new Error(`cognito-local did not start on ${endpoint}:\n${output}`);
    }
    await sleep(100);
  }
  // The test run must not wait on the emulator's handles; globalTeardown stops it.
  child.unref();
  child.channel?.unref();
  return { endpoint, pid: child.pid!, stop, log };
}

/**
 * Starts the emulator; a port taken between choosing and binding it is tried again. In `place`,
 * it serves the pools that an emulator stopped there kept.
 */
export async function startCognitoEmulator(place?: EmulatorPlace): Promise<CognitoEmulator> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const { endpoint, pid, stop } = await startOnce(place);
      return { endpoint, pid, stop };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** An SDK client for seeding; no keep-alive, so that no socket outlives a suite. */
export function emulatorClient(endpoint: string): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    region: EMULATOR_REGION,
    endpoint,
    credentials: EMULATOR_CREDENTIALS,
    requestHandler: { httpAgent: new Agent({ keepAlive: false }) },
  });
}

/**
 * The key pair that cognito-local signs every token with: it ships in the package. Tests use
 * it to make tokens the emulator would make with another lifetime (expired ones included).
 */
type SigningKey = { pem: string; jwk: { kid: string } };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file inside the package, not exported
export const EMULATOR_SIGNING_KEY: SigningKey = require('cognito-local/lib/keys/cognitoLocal.private.json');

export interface SeededPool {
  userPoolId: string;
  clientId: string;
  superAdminGroup: string;
}

/** The pool schema of the README: four mutable custom string attributes. */
export const POOL_SCHEMA = ['platform_role', 'tenant_id', 'role', 'user_type'].map((Name) => ({
  Name,
  AttributeDataType: 'String' as const,
  Mutable: true,
  StringAttributeConstraints: { MinLength: '0', MaxLength: '256' },
}));

/**
 * A new user pool with the custom attributes, an app client that allows admin sign-in, and the
 * super-admin group. `signsInByEmail`: the pool's users sign in by their address
 * (`UsernameAttributes: ["email"]`, Amplify's default), and the pool names them itself.
 */
export async function seedUserPool(
  client: CognitoIdentityProviderClient,
  superAdminGroup = 'super_admin',
  { signsInByEmail = false } = {},
): Promise<SeededPool> {
  const pool = await client.send(
    new CreateUserPoolCommand({
      PoolName: `tenant-service-e2e-${randomBytes(4).toString('hex')}`,
      Schema: POOL_SCHEMA,
      ...(signsInByEmail && { UsernameAttributes: ['email'] }),
    }),
  );
  const userPoolId = pool.UserPool!.Id!;
  const appClient = await client.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: 'tenant-service',
      // One hour, as Cognito's default: CognitoTestIdentity hands out this sign-in's token as it is for that lifetime.
      IdTokenValidity: 60,
      TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'days' },
      AccessTokenValidity: 60,
      ExplicitAuthFlows: ['ALLOW_ADMIN_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    }),
  );
  await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: superAdminGroup }));
  return { userPoolId, clientId: appClient.UserPoolClient!.ClientId!, superAdminGroup };
}
