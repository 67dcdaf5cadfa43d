import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from './support/server-process';

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
