import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The setup page's script: ES modules in `browser/` (copied beside the build by nest-cli.json's
 * assets), read once at start-up and served as they are; the page loads `setup-page.js`, which
 * imports the others.
 */
export const SETUP_SCRIPT_FILES = [
  'setup-page.js',
  'setup-common.js',
  'setup-domain.js',
  'setup-sso.js',
  'setup-scim.js',
] as const;

const SCRIPTS = new Map<string, string>(
  SETUP_SCRIPT_FILES.map((file) => [file, readFileSync(join(__dirname, 'browser', file), 'utf8')]),
);

/** A script of the page by its file name; undefined for any other name. */
export const setupScript = (file: string): string | undefined => SCRIPTS.get(file);
