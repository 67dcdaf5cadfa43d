import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). jest.config.js names the same path. */
export const CHROMIUM = '/usr/bin/chromium';

/** `describe` when Chromium is installed, a visible skip otherwise (jest.config.js prints SKIPPED; refused under CI=true). */
export const describeWithChromium = existsSync(CHROMIUM) ? describe : describe.skip;

/** Headless, offline and quiet: no sandbox (root in containers), no GPU, no calls home. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser on a new, empty profile of its own (Playwright makes a temporary user-data-dir per launch). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Screenshots for a person to look at, under a git-ignored folder. */
export function screenshotDir(name: string): string {
  const dir = join(__dirname, '..', '..', 'test-output', 'screenshots', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page, as `rule: selectors`. Evaluated through the DevTools
 * protocol, which the page's Content-Security-Policy does not govern, so that the policy stays on.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    `axe.run(document).then((result) => result.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
  );
}
