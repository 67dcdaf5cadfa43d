import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import semver from 'semver';
import {
  declaredWalks,
  problemsOf,
  Reader,
  shellBlocks,
  shows,
  stepsOf,
  WALK_DOCUMENTS,
  walkBlocks,
} from './support/doc-walks';
import { builtCommand, ROOT } from './support/server-process';
import { e2eDatabase } from './support/test-database';

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

/** One Node.js version, said once (package.json's engines) and true: every installed package supports all of it. */
describe('the Node.js versions: package.json engines', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string };
    allowScripts: Record<string, boolean>;
    scarfSettings?: { enabled?: boolean };
  };
  const engines = pkg.engines.node;

  it('every package of package-lock.json supports every Node.js that engines allows (npm ci --engine-strict passes)', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } }>;
    };
    expect(lock.packages[''].engines?.node).toBe(engines);
    // Optional packages that do not fit are skipped by npm, not refused.
    const narrower = Object.entries(lock.packages)
      .filter(([path, entry]) => path && !entry.optional && entry.engines?.node)
      .filter(([, entry]) => !semver.subset(engines, entry.engines!.node!))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version}: ${entry.engines!.node}`);
    expect(narrower).toEqual([]);
  });

  it("is what README says, what the Dockerfile of deploying.md runs, and what .ci/run's npm ci enforces", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const [sentence] = readme.match(/You need \*\*Node\.js [^*]+\*\*/) ?? [''];
    const floors = semver
      .validRange(engines)!
      .split('||')
      .map((range) => semver.minVersion(range.trim())!);
    expect(sentence.match(/\d+(?:\.\d+)?/g)).toEqual(
      floors.map((floor) => `${floor.major}${floor.minor ? `.${floor.minor}` : ''}`),
    );
    const images = readFileSync(join(ROOT, 'docs', 'deploying.md'), 'utf8').match(/^FROM node:(\d+)\b/gm) ?? [];
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(semver.satisfies(`${image.replace(/\D/g, '')}.99.0`, engines)).toBe(true);
    // The install's command, after any settings given to it alone (NAME=value …).
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^(?:\w+="[^"]*" )*npm ci --engine-strict\b/m);
  });

  it("turns off swagger-ui-dist's install analytics (Scarf) and runs no install script but better-sqlite3's", () => {
    expect(pkg.scarfSettings).toEqual({ enabled: false });
    expect(pkg.allowScripts).toEqual({ 'better-sqlite3': true, '@scarf/scarf': false, 'aws-sdk': false });
  });
});

// A clone has no /tmp/perf: a document says how to get what it runs, not where one machine kept it.
describe('the READMEs and docs/ name no temporary folder outside the repository as a place to run from', () => {
  it.each(DOCUMENTS)('%s', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8');
    expect(text.match(/\/tmp\/perf[\w./-]*/g) ?? []).toEqual([]);
  });
});

/**
 * The walks of README.md and docs/ (test/walks/*.walk.ts; docs/testing.md says how to add one), run
 * as a reader pastes them: one shell for all of them, in their order, in a checkout of its own, with
 * the servers that the text starts; each statement must end with exit code 0 and nothing on stderr,
 * and its output must be the answer shown under it (`…` stands for anything).
 */
describe('the walks of README.md and docs/', () => {
  const walks = declaredWalks();
  const blocksRun = new Set(
    walks.flatMap((walk) => {
      const { server, shell } = walkBlocks(walk);
      return [...(server ? [server] : []), ...shell].map((block) => `${block.document}\n${block.text}`);
    }),
  );

  it.each(WALK_DOCUMENTS)("every ```sh block of %s is a walk's, or says why it is not run", (document) => {
    const unaccounted = shellBlocks(document)
      .filter((block) => !block.notRun && !blocksRun.has(`${document}\n${block.text}`))
      .map((block) => `${block.section}: ${block.text.split('\n')[0]}`);
    // A new walk: test/walks/<document>.walk.ts; another block: <!-- not run: why --> right before it.
    expect(unaccounted).toEqual([]);
  });

  describe.each(walks.map((walk) => [walk.name, walk] as const))('%s', (_name, walk) => {
    const { server, shell } = walkBlocks(walk);
    const text = shell.map((block) => block.text).join('');

    it('has a ```sh block in each of its sections, and its server in the text', () => {
      for (const section of walk.sections) expect(shell.map((block) => block.section)).toContain(section);
      if ('section' in walk.server) expect(server?.text.trim()).toMatch(/npm start$/);
      else expect(readFileSync(join(ROOT, walk.document), 'utf8')).toContain(walk.server.command);
    });

    it('calls the service at $BASE, and defines BASE and json itself unless it continues another walk', () => {
      expect(text.match(/localhost:3000(?!})/g) ?? []).toEqual([]);
      if (walk.continues) return;
      if (text.includes('$BASE')) expect(text).toMatch(/^BASE=\$\{BASE:-http:\/\/localhost:3000\}$/m);
      if (/\bjson /.test(text)) expect(text).toMatch(/^json\(\) \{/m);
    });
  });

  describe('how a walk is read', () => {
    it('an answer shown matches what is printed, `…` standing for anything and a string with `…` for any string', () => {
      expect(shows('{"id":"994e5e68-…","role":"member",…}', '{"id":"a1","role":"member","x":[1]}')).toBe(true);
      expect(shows('{"id":"994e5e68-…","role":"member",…}', '{"id":"a1","role":"admin","x":[1]}')).toBe(false);
      expect(shows('{"remaining":6}', '{"remaining":7}')).toBe(false);
      expect(shows('{"tenants":[…{"name":"Globex"}]}', '{"tenants":[{"name":"Acme"},{"name":"Globex"}]}')).toBe(true);
    });

    it('splits a block into statements as bash does, each with the answer shown right under it', () => {
      const steps = stepsOf(
        [
          'json() { node -pe "JSON.parse(require(\'fs\').readFileSync(0)).$1"; }',
          'ID=$(curl -s "$BASE/x" -d \'{"a":1,',
          '  "b":2}\' \\',
          '  | json id)',
          'curl -s "$BASE/y"   # a remark',
          '# {"members":[',
          '#   {"id":"a"}]}          (the last page)',
          '# prose, not an answer',
          '',
          '# a heading comment',
          'node dns.js &',
          '# DNS on 127.0.0.1:5353',
          'curl -si "$BASE/z"',
          '# HTTP/1.1 200 OK',
          '# RateLimit-Remaining: 9',
        ].join('\n'),
      );
      expect(steps.map((step) => [step.command.split('\n').length, step.background, step.expected])).toEqual([
        [1, false, undefined],
        [3, false, undefined],
        [1, false, { kind: 'json', text: '{"members":[{"id":"a"}]}' }],
        [1, true, { kind: 'line', text: 'DNS on 127.0.0.1:5353' }],
        [1, false, { kind: 'http', lines: ['HTTP/1.1 200 OK', 'RateLimit-Remaining: 9'] }],
      ]);
    });

    it('a statement fails on a non-zero exit, on stderr, on another answer, and on an error that the text does not show', () => {
      const step = { command: 'curl', background: false };
      expect(problemsOf(step, { code: 0, stdout: '{"success":true}', stderr: '' })).toEqual([]);
      expect(problemsOf(step, { code: 1, stdout: '', stderr: '' })).toEqual(['exit code 1']);
      expect(problemsOf(step, { code: 0, stdout: '', stderr: 'oops\n' })).toEqual(['stderr: oops\n']);
      expect(problemsOf(step, { code: 0, stdout: '{"error":"Forbidden"}', stderr: '' })).toHaveLength(1);
      const shown = { ...step, expected: { kind: 'json' as const, text: '{"error":"Forbidden"}' } };
      expect(problemsOf(shown, { code: 0, stdout: '{"error":"Forbidden"}', stderr: '' })).toEqual([]);
      expect(problemsOf(shown, { code: 0, stdout: '{"error":"Unauthorized"}', stderr: '' })).toHaveLength(1);
    });

    it('"a job in the background is not waited for": a line shown under it is a problem; the block waits itself', () => {
      const [started] = stepsOf('node dns.js &\n# DNS on 127.0.0.1:5353\n');
      expect(problemsOf(started, { code: 0, stdout: '', stderr: '' })).toEqual([
        '"DNS on 127.0.0.1:5353" is shown under a job in the background: the next statement does not wait for it',
      ]);
      const [waited] = stepsOf('node dns.js > "$LOG" &\n');
      expect(problemsOf(waited, { code: 0, stdout: '', stderr: '' })).toEqual([]);
    });
  });

  // Once, on SQLite: what a newcomer runs first (`npm start` without DATABASE_URL).
  if (e2eDatabase() === 'sqlite') {
    describe('run as written, one after the other, by one reader', () => {
      let reader: Reader;
      beforeAll(async () => {
        builtCommand(['node', 'dist/src/main.js']); // the walks run the build: fails clearly without it
        reader = await Reader.start();
      }, 60_000);
      afterAll(() => reader?.stop());

      it.each(walks.map((walk) => [walk.name, walk] as const))(
        '%s',
        async (_name, walk) => {
          const problems = await reader.walk(walk);
          if (problems.length) problems.push(`the server's log:\n${reader.serverLog().slice(-4_000)}`);
          expect(problems).toEqual([]);
        },
        240_000,
      );

      it('"walks clean up what they write": no file is left in the checkout (git status shows none)', () => {
        expect(reader.written()).toEqual([]);
      });
    });
  }
});
