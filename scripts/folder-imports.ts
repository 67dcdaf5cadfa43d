/**
 * `npx ts-node --transpile-only scripts/folder-imports.ts`: which folder of src/ imports which
 * (specs included), and whether any two import each other, directly or round a longer loop.
 * Folders form layers (common at the bottom, the app's root files at the top), so a cycle is an
 * import that runs upward. Exits 1 on a cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const SRC = resolve(__dirname, '..', 'src');
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*'(\.[^']+)'/g;

const folderOf = (file: string): string => {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0] : '(root)';
};

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const imports = new Map<string, Set<string>>();
for (const file of sourceFiles(SRC)) {
  for (const [, target] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
    const imported = resolve(dirname(file), target);
    if (!imported.startsWith(SRC + sep)) continue; // test/support and package.json
    const [from, to] = [folderOf(file), folderOf(imported)];
    if (from !== to) imports.set(from, (imports.get(from) ?? new Set()).add(to));
  }
}

/** The folders from `from` back to itself, or null. */
function loopThrough(from: string): string[] | null {
  const seen = new Set<string>();
  const walk = (folder: string, path: string[]): string[] | null => {
    for (const next of imports.get(folder) ?? []) {
      if (next === from) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const loop = walk(next, [...path, next]);
      if (loop) return loop;
    }
    return null;
  };
  return walk(from, [from]);
}

for (const [from, to] of [...imports].sort(([a], [b]) => a.localeCompare(b))) {
  process.stdout.write(`${from.padEnd(16)} -> ${[...to].sort().join(', ')}\n`);
}
const loops = [...imports.keys()].map(loopThrough).filter((loop) => loop !== null);
for (const loop of loops) process.stdout.write(`cycle: ${loop.join(' -> ')}\n`);
process.exitCode = loops.length ? 1 : 0;
