import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { builtCommand, ROOT, serviceEnv, startServerProcess } from './support/server-process';
import { TEST_JWT_SECRET } from './support/test-app';

const DOCUMENTS = [
  'README.md',
  'examples/qa-suite/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower-cased, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/[_`*]/g, '')
    .replace(/ /g, '-');
const anchorsIn = (file: string) =>
  new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => anchorOf(line.replace(/^#+ /, ''))),
  );

/** A clone has the repository and nothing beside it: what its documents point to must be inside. */
describe('the READMEs and docs/', () => {
  it.each(DOCUMENTS)('%s links only to files and headings inside the repository', (document) => {
    const path = join(ROOT, document);
    const broken: string[] = [];
    for (const [, target] of readFileSync(path, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#');
      const resolved = file ? resolve(dirname(path), file) : path;
      if (relative(ROOT, resolved).startsWith('..')) broken.push(`${target}: outside the repository`);
      else if (!existsSync(resolved)) broken.push(`${target}: no such file`);
      else if (anchor && resolved.endsWith('.md') && !anchorsIn(resolved).has(anchor))
        broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  // Commands and paths in the text are read from the repository's root, where `../` leaves it.
  it.each(DOCUMENTS)('%s names no path above the repository in its text', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8').replace(/\]\([^)\s]+\)/g, ']');
    expect(text.match(/(?<![\w.])\.\.\/[\w./-]*/g) ?? []).toEqual([]);
  });
});

/**
 * docs/api.md lists every route of openapi.json, as its first paragraph says: the method and the
 * path exactly as openapi.json writes them (`GET /api/org/members`, `PATCH /api/org/members/{id}`),
 * in a heading of section 4 or backquoted in section 10's table. The match is that text with
 * nothing but a space, a backquote or a line's end on either side, so that `GET /api/invitations`
 * is not found inside `GET /api/invitations/{token}`.
 */
describe('docs/api.md', () => {
  const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  const routes = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
  const listed = (text: string, route: string) =>
    new RegExp(`(^|[\\s\`])${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s\`]|$)`, 'm').test(text);

  it('reads the routes of openapi.json', () => {
    expect(routes).toEqual(expect.arrayContaining(['GET /api/invitations/{token}', 'POST /api/org/invite']));
  });

  it('lists every route of openapi.json as METHOD /path', () => {
    const text = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
    expect(routes.filter((route) => !listed(text, route))).toEqual([]);
  });

  it('matches a route only whole', () => {
    expect(listed('### 4.1 GET /api/invitations/{token} (public)', 'GET /api/invitations')).toBe(false);
    expect(listed('### 4.1 GET /api/invitations/{token} (public)', 'GET /api/invitations/{token}')).toBe(true);
    expect(listed('| `POST /api/org/invitations/bulk` |', 'POST /api/org/invitations/bulk')).toBe(true);
    expect(listed('| `GET /api/org/members/:id` |', 'GET /api/org/members/{id}')).toBe(false);
  });
});

/** What README.md and docs/deploying.md both say must agree, and deploying.md's install must not build twice. */
describe('README.md and docs/deploying.md', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const deploying = readFileSync(join(ROOT, 'docs', 'deploying.md'), 'utf8');

  it("give the same resident-memory figures (README's Performance, deploying.md's Memory)", () => {
    const figures = (text: string) => new Set(text.match(/\b\d+(?:–\d+)? MB\b/g));
    const [readmeSentence] = readme.match(/The server stays under 200 MB of resident memory[^]*?\n\n/) ?? [''];
    const memory = deploying.slice(deploying.indexOf('## Memory'));
    expect(figures(readmeSentence).size).toBeGreaterThan(2);
    expect([...figures(readmeSentence)].filter((figure) => !figures(memory).has(figure))).toEqual([]);
  });

  it('on one machine, the dev dependencies are pruned after the build (npm prune --omit=dev), not installed again', () => {
    const [oneMachine] = deploying.match(/```sh\ngit clone[^]*?```/) ?? [''];
    expect(oneMachine).toMatch(/^npm ci\b/m);
    expect(oneMachine).toMatch(/^npm prune --omit=dev\b/m);
    expect(oneMachine).not.toMatch(/npm ci --omit=dev/);
  });
});

// A clone has no /tmp/perf: a document says how to get what it runs, not where one machine kept it.
describe('the READMEs and docs/ name no temporary folder outside the repository as a place to run from', () => {
  it.each(DOCUMENTS)('%s', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8');
    expect(text.match(/\/tmp\/perf[\w./-]*/g) ?? []).toEqual([]);
  });
});

/** The README's section under `heading`, to the next `## `. */
const readmeSection = (heading: string) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`## ${heading}\n`);
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
};
const shellBlocks = (text: string) => [...text.matchAll(/```sh\n([^]*?)```/g)].map(([, block]) => block);

/** A shell script run as a reader pastes it, in an operator's shell (none of the npm_* of the `npm test` running this). */
function bash(script: string, env: Record<string, string>) {
  const shell = Object.fromEntries(Object.entries(serviceEnv(env)).filter(([name]) => !/^npm_/i.test(name)));
  const child = spawn('bash', ['-c', script], { cwd: ROOT, env: shell, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe("the README's walk From a new tenant to its first members, run as written", () => {
  it('starts from the fresh database it names and ends with Globex active and its three members', async () => {
    const [start, walk] = shellBlocks(readmeSection('From a new tenant to its first members'));
    expect(start.trim()).toBe('rm -f data/walk.sqlite && DATABASE_URL=sqlite:data/walk.sqlite npm start');
    // The same walk, on a database and a port of this test's own.
    const dir = mkdtempSync(join(tmpdir(), 'readme-walk-'));
    const databaseUrl = `sqlite:${join(dir, 'walk.sqlite')}`;
    const env = { DATABASE_URL: databaseUrl, AUTH_JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'warn' };
    const server = await startServerProcess(env, { command: builtCommand(['node', 'dist/src/main.js']) });
    try {
      const script = walk
        .replaceAll('sqlite:data/walk.sqlite', databaseUrl)
        .replaceAll('localhost:3000', `localhost:${server.port}`);
      const result = await bash(script, env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/"name":"Globex","type":"business","status":"active"/);
      expect(result.stdout).toMatch(
        /\{"members":\[\{"id":"adam",[^\]]*"role":"admin"\},\{"id":"mia",[^\]]*"role":"member"\},\{"id":"olivia",[^\]]*"role":"owner"\}\]/,
      );
    } finally {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("the README's walk Managing an organisation", () => {
  it('defines json and $OWNER itself, or names where they come from', () => {
    const [walk] = shellBlocks(readmeSection('Managing an organisation'));
    expect(walk).toMatch(/^json\(\) \{/m);
    expect(walk).toMatch(/^OWNER=\$\(npm run -s cli -- dev:seed \| json owner\.token\)$/m);
  });
});
