/** Test mode's settings (docs/test-mode.md). */

import { boolean, ConfigError, Env, NodeEnv, read } from './env-values';

/** Test mode (docs/test-mode.md): the routes under /api/test/, for QA suites; never in production. */
export interface TestModeConfig {
  enabled: boolean;
  /** What the X-Test-Mode-Key header must carry; set whenever `enabled` is. Never logged. */
  key?: string;
}

/** TEST_MODE=true opens routes that move the clock and mint sessions: refused in production, and keyed. */
export function testModeSettings(env: Env, nodeEnv: NodeEnv): TestModeConfig {
  const enabled = boolean(env, 'TEST_MODE', false);
  if (!enabled) return { enabled };
  if (nodeEnv === 'production') throw new ConfigError('TEST_MODE', 'must not be true when NODE_ENV=production');
  const key = read(env, 'TEST_MODE_KEY');
  if (key === undefined || key.length < 16) {
    throw new ConfigError('TEST_MODE_KEY', 'must be set, at least 16 characters, when TEST_MODE=true');
  }
  return { enabled, key };
}
