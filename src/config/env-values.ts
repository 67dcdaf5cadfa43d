/**
 * Reading the environment, one variable at a time: the readers that every concern's settings use,
 * so that a bad value is refused alike everywhere, in one line that names its variable.
 */

/** A refused value, as start-up reports it: `Invalid configuration: VARIABLE problem`. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** Only these: a misspelt `Production` or `prod` would otherwise start on the development key, as development. */
export const NODE_ENVS = ['production', 'development', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

/** Reads a variable; an empty or white-space value counts as unset. */
export function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol.slice(0, -1))) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

export function list(env: Env, name: string): string[] | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ConfigError(name, 'must list at least one value');
  return items;
}

/** A worker's retry delays: the first, doubling with each failure up to the longest, which is not below the first. */
export function retryDelays(
  env: Env,
  [baseName, baseFallback]: [string, number],
  [maxName, maxFallback]: [string, number],
): { retryBaseMs: number; retryMaxMs: number } {
  const retryBaseMs = integer(env, baseName, baseFallback, 10, 3_600_000);
  const retryMaxMs = integer(env, maxName, maxFallback, 10, 86_400_000);
  if (retryMaxMs < retryBaseMs) {
    throw new ConfigError(maxName, `must not be less than ${baseName} (${retryBaseMs}), got "${retryMaxMs}"`);
  }
  return { retryBaseMs, retryMaxMs };
}
