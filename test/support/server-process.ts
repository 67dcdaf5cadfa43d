import { ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { existsSync } from 'node:fs';

/**
 * The service as a real process, for what only a process shows: signals, exit codes, its stdout.
 * It listens on a free loopback port. By default `node dist/src/main.js`, the build that `npm test`
 * makes first (alone, a suite needs `npm run build`); `command` runs what operators run instead
 * (`npm start`: see builtCommand).
 */
export interface ServerProcess {
  port: number;
  url: string;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  exited: Promise<number | null>;
  /** Kills the process if it still runs (tests that fail half-way leave none behind). */
  kill(): Promise<void>;
}

export const ROOT = join(__dirname, '..', '..');

export interface ServerProcessOptions {
  /** The program and its arguments, run in the checkout. */
  command?: [string, ...string[]];
  /** In a process group of its own (its pid is the group id), as a supervisor starts it. */
  detached?: boolean;
  /**
   * Stdout is a pipe that nobody reads, as a stalled log shipper leaves it: output() holds stderr
   * only, and the test reads `child.stdout` if and when it chooses.
   */
  stdoutUnread?: boolean;
}

/** The environment a spawned service gets: the test run's own E2E_/TEST_/JEST_ settings left out. */
export function serviceEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(E2E_|TEST_|JEST_)/.test(name)),
  );
  return { ...inherited, NODE_ENV: 'test', ...env };
}

/** A command that runs the built service (dist/, which `npm test` builds first): fails clearly without it. */
export function builtCommand<T extends [string, ...string[]]>(command: T): T {
  if (!existsSync(join(ROOT, 'dist', 'src', 'main.js')))
    throw new Error('dist/ is missing: run `npm run build` first (`npm test` does)');
  return command;
}
const START_TIMEOUT_MS = 45_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether a new TCP connection to the port is refused. */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the server with `env` on top of a test environment, and waits until /health/ready answers 200. */
export async function startServerProcess(
  env: Record<string, string>,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const [program, ...args] = options.command ?? builtCommand([process.execPath, 'dist/src/main.js']);
  const child = spawn(program, args, {
    cwd: ROOT,
    env: serviceEnv({ PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached,
  });
  if (options.stdoutUnread) {
    child.stdout!.pause();
    child.once('exit', () => child.stdout!.resume()); // to its end, so that the pipe is closed
  } else child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running = () => child.exitCode === null && child.signalCode === null;
  const server: ServerProcess = {
    port,
    url,
    child,
    output: () => output,
    exited,
    kill: async () => {
      if (!running()) return;
      if (options.detached) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
      await exited;
    },
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (!running()) throw new Error(`The server exited while starting:\n${output}`);
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`The server was not ready within ${START_TIMEOUT_MS} ms:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(1_000) });
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
}
