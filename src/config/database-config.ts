/** The database's settings, from DATABASE_URL. */

import { ConfigError, Env, read } from './env-values';

/** The database's settings, from DATABASE_URL: SQLite (a file, or in memory) or MySQL/MariaDB (one host or several). */
export type DatabaseConfig =
  | { type: 'sqlite'; database: string }
  /** `url` names the first host; `hosts` (`host:port`, in order) when DATABASE_URL lists several for fail-over. */
  | { type: 'mysql'; url: string; hosts?: string[] };

export const DEFAULT_SQLITE_FILE = 'data/tenant-service.sqlite';

export function databaseSettings(env: Env): DatabaseConfig {
  const raw = read(env, 'DATABASE_URL');
  if (raw === undefined) return { type: 'sqlite', database: DEFAULT_SQLITE_FILE };
  if (raw === 'sqlite::memory:') return { type: 'sqlite', database: ':memory:' };
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new ConfigError('DATABASE_URL', 'names no SQLite file');
    return { type: 'sqlite', database: file };
  }
  if (raw.startsWith('mysql://') || raw.startsWith('mariadb://')) {
    // Several hosts for fail-over: mysql://user:pass@h1:3306,h2:3306/db (the URL parser takes one).
    const several = /^(mysql|mariadb):\/\/([^@/]*@)?([^/@]+,[^/@]+)(\/.*)$/.exec(raw);
    if (several) {
      const hosts = several[3].split(',').map((host) => host.trim());
      if (!hosts.every((host) => /^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host))) {
        throw new ConfigError('DATABASE_URL', 'must list its hosts as host:port,host:port (no brackets, no spaces)');
      }
      const withPorts = hosts.map((host) => (host.includes(':') ? host : `${host}:3306`));
      const first = databaseSettings({ DATABASE_URL: `mysql://${several[2] ?? ''}${withPorts[0]}${several[4]}` });
      return { ...first, hosts: withPorts } as DatabaseConfig;
    }
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid mysql:// URL');
    }
    if (!parsed.hostname || parsed.pathname.length <= 1) {
      throw new ConfigError('DATABASE_URL', 'must name a host and a database: mysql://user:pass@host:3306/db');
    }
    parsed.protocol = 'mysql:';
    return { type: 'mysql', url: parsed.toString() };
  }
  throw new ConfigError('DATABASE_URL', 'must start with mysql://, sqlite: or be sqlite::memory:');
}
