import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { freePort, ROOT } from './server-process';

/**
 * The walks of README.md and docs/ (their ```sh blocks), run as a reader pastes them: one shell
 * for them all, in the order they are read, in a checkout of their own (test/docs.local.e2e-spec.ts;
 * docs/testing.md says how to add one). A walk is declared in test/walks/<document>.walk.ts.
 */
export interface Walk {
  /** What the reader does, as the test names it. */
  name: string;
  /** README.md or docs/<name>.md. */
  document: string;
  /** The headings (without #) whose ```sh blocks the walk runs, in the order given; each must have one. */
  sections: string[];
  /**
   * How the service runs meanwhile, as the text says to start it (`npm start`, or a block of the
   * walk's that starts it, which then runs as the server rather than in the reader's shell).
   * The server keeps running into the next walk that names the same command.
   */
  server: { command: string } | { section: string };
  /** Ports the text names for other servers (a DNS server on 5353): each becomes a free one throughout the walk. */
  freePorts?: number[];
  /** The walk reads variables or functions that an earlier walk of the reader's shell defined. */
  continues?: string;
}

/** A ```sh block of a document: its section's heading, its text, and why it is not run (`<!-- not run: … -->`). */
export interface ShellBlock {
  document: string;
  section: string;
  text: string;
  notRun?: string;
}

/** README.md and every document of docs/: each ```sh block of theirs is a walk's or says why not. */
export const WALK_DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

const NOT_RUN = /<!--\s*not run:\s*([^]*?)\s*-->\s*$/;

export function shellBlocks(document: string): ShellBlock[] {
  const text = readFileSync(join(ROOT, document), 'utf8');
  const blocks: ShellBlock[] = [];
  let section = '';
  let open: { start: number; before: string } | undefined;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (open) {
      if (line.trim() === '```') {
        const notRun = NOT_RUN.exec(open.before)?.[1];
        blocks.push({ document, section, text: lines.slice(open.start + 1, i).join('\n') + '\n', notRun });
        open = undefined;
      }
      return;
    }
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) section = heading[1].trim();
    // Indented blocks (in a list) count too.
    if (/^\s*```sh\s*$/.test(line)) open = { start: i, before: lines.slice(Math.max(0, i - 3), i).join('\n') };
  });
  return blocks;
}

/** The walks declared in test/walks/: README.md's first, then by document. */
export function declaredWalks(): Walk[] {
  const folder = join(ROOT, 'test', 'walks');
  const walks = readdirSync(folder)
    .filter((name) => name.endsWith('.walk.ts'))
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each document's walks: a file of their own
    .flatMap((name) => (require(join(folder, name)) as { walks: Walk[] }).walks);
  const order = (walk: Walk) => (walk.document === 'README.md' ? '' : walk.document);
  return walks
    .map((walk, i) => ({ walk, i }))
    .sort((a, b) => order(a.walk).localeCompare(order(b.walk)) || a.i - b.i)
    .map(({ walk }) => walk);
}

/** The blocks a walk runs in the reader's shell, and the one that starts its server, if any. */
export function walkBlocks(walk: Walk): { server?: ShellBlock; shell: ShellBlock[] } {
  const all = shellBlocks(walk.document).filter((block) => !block.notRun);
  const serverSection = 'section' in walk.server ? walk.server.section : undefined;
  const shell = walk.sections.flatMap((section) => all.filter((block) => block.section === section));
  const server = serverSection === undefined ? undefined : all.find((block) => block.section === serverSection);
  return { server, shell: shell.filter((block) => block !== server) };
}

/** What a step shows under it: a JSON answer (`# {…}`), an HTTP answer's lines (`# HTTP/1.1 200 OK`), a job's line. */
export type Expected =
  { kind: 'json'; text: string } | { kind: 'http'; lines: string[] } | { kind: 'line'; text: string };

/** One statement of a block, as bash reads it, and the answer shown under it. */
export interface Step {
  command: string;
  /**
   * Sent to the background (`… &`). A reader runs the next statement at once: a line shown under
   * it is a problem (the block waits for its job itself, as README's `until grep` does).
   */
  background: boolean;
  expected?: Expected;
}

/** The code of a line as bash reads it (a comment dropped), keeping count of open quotes and brackets. */
function scan(line: string, state: { quote: string; depth: number }): string {
  let code = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && state.quote !== "'") {
      code += c + (line[i + 1] ?? ''); // an escaped character, or a line that goes on
      i++;
      continue;
    }
    if (state.quote) {
      if (c === state.quote) state.quote = '';
    } else if (c === "'" || c === '"') state.quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) break;
    else if (c === '(' || c === '{') state.depth++;
    else if (c === ')' || c === '}') state.depth--;
    code += c;
  }
  return code;
}

/** An answer shown in a comment may end with a remark in brackets, after two spaces or more. */
const withoutRemark = (text: string) => text.replace(/\s{2,}\([^()]*\)\s*$/, '').trimEnd();

function expectedOf(comments: string[], background: boolean): Expected | undefined {
  const texts = comments.map((line) => line.replace(/^\s*# ?/, ''));
  if (texts.length === 0) return undefined;
  if (background) return { kind: 'line', text: withoutRemark(texts[0]) };
  if (/^[[{]/.test(texts[0])) {
    let text = texts[0];
    for (const more of texts.slice(1)) {
      if (!/^\s/.test(more)) break; // an answer's lines go on indented
      text += more.trim();
    }
    return { kind: 'json', text: withoutRemark(text) };
  }
  if (texts[0].startsWith('HTTP/')) {
    const lines = [texts[0]];
    for (const more of texts.slice(1)) {
      if (!/^([A-Za-z-]+: |[[{])/.test(more)) break;
      lines.push(more);
    }
    return { kind: 'http', lines: lines.map(withoutRemark) };
  }
  return undefined;
}

export function stepsOf(block: string): Step[] {
  const steps: Step[] = [];
  let command: string[] = [];
  let comments: string[] = [];
  // The statement whose answer the comments right under it show (none after a blank line).
  let last: Step | undefined;
  const settle = () => {
    if (last && comments.length) last.expected = expectedOf(comments, last.background);
    comments = [];
  };
  const state = { quote: '', depth: 0 };
  for (const line of block.split('\n')) {
    if (command.length === 0) {
      if (/^\s*#/.test(line)) {
        if (last) comments.push(line);
        continue;
      }
      settle();
      last = undefined;
      if (line.trim() === '') continue;
    }
    command.push(line);
    const code = scan(line, state).trimEnd();
    if (state.quote === '' && state.depth <= 0 && !/(\\|\||&&)$/.test(code)) {
      last = { command: command.join('\n'), background: /[^&]&$/.test(code) };
      steps.push(last);
      command = [];
    }
  }
  if (command.length) throw new Error(`A statement does not end:\n${command.join('\n')}`);
  settle();
  return steps;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `actual` is what `shown` shows: `…` stands for anything, and a JSON string with `…` in it
 * for any string (`"994e5e68-…"`, `"eyJ…"`).
 */
export function shows(shown: string, actual: string): boolean {
  const pattern = shown
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, i) => {
      if (i % 2 === 1) return part.includes('…') ? '"(?:[^"\\\\]|\\\\.)*"' : escapeRegExp(part);
      return part.split('…').map(escapeRegExp).join('[^]*?');
    })
    .join('');
  return new RegExp(`^${pattern}$`).test(actual);
}

/** What was wrong with a step's result, if anything. */
export function problemsOf(step: Step, result: StepResult): string[] {
  const problems: string[] = [];
  if (result.code !== 0) problems.push(`exit code ${result.code}`);
  if (result.stderr !== '') problems.push(`stderr: ${result.stderr}`);
  const output = result.stdout.replace(/\n$/, '');
  const { expected } = step;
  if (step.background && expected?.kind === 'line')
    problems.push(`"${expected.text}" is shown under a job in the background: the next statement does not wait for it`);
  if (expected?.kind === 'json' && !shows(expected.text, output))
    problems.push(`the answer shown:\n  ${expected.text}\nthe answer got:\n  ${output}`);
  if (expected?.kind === 'http') {
    const lines = output.split(/\r?\n/);
    let at = 0;
    for (const line of expected.lines) {
      const found = lines.findIndex((got, i) => i >= at && shows(line, got));
      if (found < 0) {
        problems.push(`the answer shown has "${line}", the answer got:\n  ${lines.join('\n  ')}`);
        break;
      }
      at = found + 1;
    }
  }
  // An error that the text does not show is a walk that went wrong.
  if (
    !expected &&
    /^\{("error"|"valid":false|"success":false|"schemas":\["urn:ietf:params:scim:api:messages:2.0:Error")/.test(output)
  )
    problems.push(`an error that the text does not show: ${output}`);
  return problems;
}

export interface StepResult {
  code: number;
  stdout: string;
  stderr: string;
}

const DONE = '\u001eWALK-STEP-DONE';

/**
 * A reader's terminal: one bash, fed one statement at a time (through fd 3, so that nothing a
 * command reads from its standard input can eat the walk), its variables and functions kept.
 */
export class ReaderShell {
  private stdout = '';
  private stderr = '';
  private waiting?: () => void;

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => this.received('stdout', chunk));
    child.stderr!.on('data', (chunk: Buffer) => this.received('stderr', chunk));
  }

  static start(cwd: string, env: NodeJS.ProcessEnv): ReaderShell {
    const loop =
      'while IFS= read -r -d "" __walk_step <&3; do eval "$__walk_step" 3<&-; ' +
      `printf '\\n${DONE} %d\\n' "$?"; printf '\\n${DONE}\\n' >&2; done`;
    const child = spawn('bash', ['--noprofile', '--norc', '-c', loop], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    return new ReaderShell(child);
  }

  private received(stream: 'stdout' | 'stderr', chunk: Buffer) {
    this[stream] += chunk.toString();
    this.waiting?.();
  }

  /** Runs one statement; resolves once it has ended, or with code -1 after `timeoutMs`. */
  async run(command: string, timeoutMs = 60_000): Promise<StepResult> {
    (this.child.stdio[3] as Writable).write(`${command}\0`);
    const ended = () => this.stdout.includes(`\n${DONE} `) && this.stderr.includes(`\n${DONE}\n`);
    const deadline = Date.now() + timeoutMs;
    while (!ended()) {
      if (Date.now() > deadline || this.child.exitCode !== null)
        return { code: -1, stdout: this.stdout, stderr: this.stderr };
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
    const at = this.stdout.indexOf(`\n${DONE} `);
    const end = this.stdout.indexOf('\n', at + 1);
    const code = Number(this.stdout.slice(at + DONE.length + 2, end));
    const stdout = this.stdout.slice(0, at);
    this.stdout = this.stdout.slice(end + 1);
    const errorAt = this.stderr.indexOf(`\n${DONE}\n`);
    const stderr = this.stderr.slice(0, errorAt);
    this.stderr = this.stderr.slice(errorAt + DONE.length + 2);
    return { code, stdout, stderr };
  }

  close(): void {
    this.child.kill('SIGKILL');
  }
}

/** A terminal's environment, with none of this test run's settings: only what a reader's shell has. */
export function readerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'SHELL'];
  return {
    ...Object.fromEntries(kept.filter((name) => process.env[name]).map((name) => [name, process.env[name]])),
    ...extra,
  };
}

/**
 * A checkout of the reader's own, where the walks write what they write (`data/`, `team.csv`): the
 * repository's package.json, built dist/, node_modules/ and scripts/, linked; nothing else.
 */
export function scratchCheckout(): { dir: string; remove(): void; written(): string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'doc-walks-'));
  const linked = ['package.json', '.npmrc', 'dist', 'node_modules', 'scripts'];
  for (const name of linked) symlinkSync(join(ROOT, name), join(dir, name));
  mkdirSync(join(dir, 'data'));
  return {
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
    // data/ is the database's, ignored by git (.gitignore) as in a clone.
    written: () => readdirSync(dir).filter((name) => ![...linked, 'data'].includes(name)),
  };
}

/** The service as a walk starts it: its command in bash, in the reader's checkout, in a process group of its own. */
export class WalkServer {
  private output = '';

  private constructor(
    readonly command: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static async start(command: string, cwd: string, env: NodeJS.ProcessEnv, base: string): Promise<WalkServer> {
    const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const server = new WalkServer(command, child);
    const deadline = Date.now() + 45_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited while starting:\n${server.output}`);
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`${command} was not ready within 45 s:\n${server.output}`);
      }
      const ready = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(1_000) }).catch(() => undefined);
      if (ready?.status === 200) return server;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Everything the server wrote (its log). */
  log(): string {
    return this.output;
  }

  /** Ctrl-C, as a reader stops it: SIGINT to npm and the server alike. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    process.kill(-this.child.pid!, 'SIGINT');
    const killed = setTimeout(() => process.kill(-this.child.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(killed);
  }
}

/** Every number of `ports` in the text (as a whole word), as the free port chosen for it. */
export const withPorts = (text: string, ports: Map<number, number>) =>
  [...ports].reduce((result, [from, to]) => result.replace(new RegExp(`\\b${from}\\b`, 'g'), String(to)), text);

/** One reader, from the first walk to the last: the shell, the checkout, the server of the moment. */
export class Reader {
  private server?: WalkServer;
  private constructor(
    private readonly checkout: ReturnType<typeof scratchCheckout>,
    private readonly shell: ReaderShell,
    private readonly env: NodeJS.ProcessEnv,
    private readonly port: number,
  ) {}

  /** `BASE`, set before the first walk as README says for a service that is not on 3000, and the server's `PORT`. */
  static async start(): Promise<Reader> {
    const port = await freePort();
    const checkout = scratchCheckout();
    const env = readerEnv({ BASE: `http://localhost:${port}` });
    return new Reader(checkout, ReaderShell.start(checkout.dir, env), env, port);
  }

  /** Runs a walk; the problems found, each naming its step (none: the walk runs as written). */
  async walk(walk: Walk): Promise<string[]> {
    const ports = new Map<number, number>();
    for (const port of walk.freePorts ?? []) ports.set(port, await freePort());
    const blocks = walkBlocks(walk);
    const command = withPorts('command' in walk.server ? walk.server.command : blocks.server!.text.trim(), ports);
    if (this.server?.command !== command) {
      await this.server?.stop();
      this.server = undefined;
      this.server = await WalkServer.start(
        command,
        this.checkout.dir,
        { ...this.env, PORT: String(this.port) },
        this.env.BASE!,
      );
    }
    const problems: string[] = [];
    for (const block of blocks.shell) {
      for (const step of stepsOf(withPorts(block.text, ports))) {
        const result = await this.shell.run(step.command);
        const found = problemsOf(step, result);
        if (found.length) problems.push(`${block.document}, ${block.section}:\n$ ${step.command}\n${found.join('\n')}`);
      }
    }
    return problems;
  }

  /** The files the walks left in the checkout, which `git status` would show. */
  written(): string[] {
    return this.checkout.written();
  }

  /** The log of the server that runs now. */
  serverLog(): string {
    return this.server?.log() ?? '';
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.shell.close();
    this.checkout.remove();
  }
}
