import { isIP } from 'node:net';
import { isNonPublicAddress } from '../common/address-classifier';

/**
 * The validated, typed configuration. Built once from the environment by `parseConfig`;
 * nothing else in the service reads `process.env`.
 */
export type DatabaseConfig =
  | { type: 'sqlite'; database: string }
  /** `url` names the first host; `hosts` (`host:port`, in order) when DATABASE_URL lists several for fail-over. */
  | { type: 'mysql'; url: string; hosts?: string[] };

/** A Redis Cluster's seed nodes (REDIS_CLUSTER_NODES), in the form ioredis' Cluster takes. */
export interface RedisNode {
  host: string;
  port: number;
}

export interface CognitoConfig {
  userPoolId?: string;
  clientId?: string;
  region?: string;
  endpoint?: string;
  superAdminGroup: string;
}

/** The invitation e-mail outbox worker: how often it polls and how it retries. */
export interface OutboxConfig {
  /** How often each instance looks for e-mails to send; a new invitation also wakes it at once. */
  pollIntervalMs: number;
  /** Delivery attempts before an e-mail is marked failed. */
  maxAttempts: number;
  /** Delay before the first retry; it doubles with each failure, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
}

/** Webhooks (docs/webhooks.md): where every audit event is sent, signed per Standard Webhooks, and how. */
export interface WebhooksConfig {
  /** The receivers; empty when webhooks are off. */
  urls: string[];
  /** The signing secret, `whsec_` and base64 (Standard Webhooks); set whenever `urls` is not empty. */
  secret?: string;
  /** Production, unless WEBHOOK_ALLOW_PRIVATE=true: refuse receivers on loopback, link-local or private addresses. */
  refusePrivateAddresses: boolean;
  /** The bound on one attempt, from connecting to the response's status line. */
  timeoutMs: number;
  /** How often each instance looks for deliveries that are due. */
  pollIntervalMs: number;
  /** Attempts before a delivery is marked failed. */
  maxAttempts: number;
  /** Delay before the first retry; it doubles with each failure, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
}

/** Graceful shutdown on SIGTERM/SIGINT (see src/health/graceful-shutdown.ts). */
export interface ShutdownConfig {
  /** How long readiness fails before the server stops accepting, so that the load balancer stops sending. */
  drainMs: number;
  /** The bound on the whole shutdown: the process exits 1 if it is still running by then. */
  graceMs: number;
}

/** Test mode (docs/test-mode.md): the routes under /api/test/, for QA suites; never in production. */
export interface TestModeConfig {
  enabled: boolean;
  /** What the X-Test-Mode-Key header must carry; set whenever `enabled` is. Never logged. */
  key?: string;
}

/** Verified domains (docs/domains.md). */
export interface DomainsConfig {
  perOrg: number;
  /** Names refused as free-mail providers beside the maintained lists; lower-cased. */
  denylist: string[];
  /** Names accepted whatever the lists say; lower-cased. */
  allowlist: string[];
  verificationTtlSeconds: number;
  recheckSeconds: number;
  graceSeconds: number;
  /** `host:port` entries for the service's own resolver; empty: the system's. */
  resolverServers: string[];
  dnsTimeoutMs: number;
}

/** Custom roles (docs/roles.md). */
export interface RolesConfig {
  /** Custom roles an organisation may define (ROLE_LIMIT beyond). */
  perOrg: number;
  /** Custom roles a member may hold, and an invitation carry (MEMBER_ROLE_LIMIT beyond). */
  perMember: number;
}

/** Single sign-on (docs/sso.md). */
export interface SsoConfig {
  /**
   * The AES-256-GCM key of the connections' client secrets (SSO_SECRETS_KEY, 32 bytes); null under
   * NODE_ENV=production without one: the SSO routes then refuse with SSO_NOT_CONFIGURED, the rest serves.
   */
  secretsKey: Buffer | null;
  /** True when no SSO_SECRETS_KEY was given outside production and the development key is in use. */
  usingDevelopmentSecretsKey: boolean;
  /** Connections an organisation may hold (SSO_CONNECTION_LIMIT beyond). */
  connectionsPerOrg: number;
  /** Production, unless SSO_ALLOW_PRIVATE=true: refuse fetching from loopback, link-local or private addresses. */
  refusePrivateAddresses: boolean;
  /** Production: the issuer, its discovery document's endpoints and its keys are fetched over https only. */
  httpsOnly: boolean;
  /** The bound on one fetch from an identity provider (discovery, keys, the code exchange). */
  httpTimeoutMs: number;
  /** How far an ID token's exp and iat may be off this server's clock. */
  clockSkewSeconds: number;
  /** Origins that returnTo may name beside this service's own (SSO_RETURN_ORIGINS). */
  returnOrigins: string[];
  /** POST /api/sso/discover calls per client address a minute (429 beyond), counted where the invite limit is. */
  discoverRateLimit: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Only these: a misspelt `Production` or `prod` would otherwise start on the development key, as development. */
export const NODE_ENVS = ['production', 'development', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

export abstract class AppConfig {
  abstract readonly nodeEnv: NodeEnv;
  abstract readonly port: number;
  abstract readonly database: DatabaseConfig;
  abstract readonly migrationsRun: boolean;
  abstract readonly identityStore: 'local' | 'cognito';
  /** HS256 key for local-mode id tokens. */
  abstract readonly authJwtSecret: string;
  /** True when no AUTH_JWT_SECRET was given and the development key is in use. */
  abstract readonly usingDevelopmentJwtSecret: boolean;
  abstract readonly sessionCookieName: string;
  abstract readonly cognito: CognitoConfig;
  abstract readonly smtpUrl?: string;
  abstract readonly mailFrom: string;
  abstract readonly redisUrl?: string;
  /** A Redis Cluster instead of one Redis (REDIS_CLUSTER_NODES; never with REDIS_URL). */
  abstract readonly redisClusterNodes?: RedisNode[];
  /** Prefix of every Redis key, so that services or test runs can share one Redis. */
  abstract readonly redisKeyPrefix: string;
  abstract readonly inviteRateLimit: number;
  abstract readonly inviteRateWindowSeconds: number;
  /** Rows that one POST /api/org/invitations/bulk may carry (413 beyond). */
  abstract readonly bulkInviteMaxRows: number;
  /** SCIM requests per token per minute (docs/scim.md; 429 beyond). */
  abstract readonly scimRateLimit: number;
  abstract readonly trustProxy?: boolean | number | string;
  abstract readonly publicBaseUrl?: string;
  abstract readonly allowedHosts?: string[];
  abstract readonly allowedOrigins?: string[];
  /** Serve the page that invitation links open (GET /invitations/{token}); a portal with its own page turns it off. */
  abstract readonly invitationPage: boolean;
  /** Where the invitation page sends a visitor without a session to sign in, with the page as `return_to`. */
  abstract readonly signInUrl?: string;
  abstract readonly logLevel: LogLevel;
  /** A request still unanswered after this long is answered 503: no request hangs on a stuck dependency. */
  abstract readonly requestTimeoutMs: number;
  abstract readonly shutdown: ShutdownConfig;
  abstract readonly outbox: OutboxConfig;
  /** Audit events older than this many days are deleted. */
  abstract readonly auditRetentionDays: number;
  /** How long a tenant's name is reused from memory before it is read again; 0 reads it every time. */
  abstract readonly tenantNameCacheSeconds: number;
  abstract readonly webhooks: WebhooksConfig;
  abstract readonly testMode: TestModeConfig;
  abstract readonly domains: DomainsConfig;
  abstract readonly roles: RolesConfig;
  abstract readonly sso: SsoConfig;
}

export const DEFAULT_SQLITE_FILE = 'data/tenant-service.sqlite';
export const DEVELOPMENT_JWT_SECRET = 'development-only-insecure-key-change-me';

/** An HS256 key is at least as long as the hash, 32 bytes (RFC 7518, 3.2): shorter is refused in production. */
export const MIN_JWT_SECRET_BYTES = 32;

/** The start-up warning about the local-mode session key, if any: none set, or one too short for production. */
export function jwtSecretWarning(config: AppConfig): string | null {
  if (config.identityStore !== 'local') return null;
  if (config.usingDevelopmentJwtSecret)
    return 'AUTH_JWT_SECRET is not set: using the development key. Never do this in production.';
  const bytes = Buffer.byteLength(config.authJwtSecret);
  if (bytes >= MIN_JWT_SECRET_BYTES) return null;
  return `AUTH_JWT_SECRET is ${bytes} bytes, under the ${MIN_JWT_SECRET_BYTES} of an HS256 key: NODE_ENV=production refuses it.`;
}

/** The key of client secrets outside production when SSO_SECRETS_KEY is unset: known to all, so never for real secrets. */
export const DEVELOPMENT_SSO_SECRETS_KEY = Buffer.from('development-only-sso-key-change!', 'utf8');

/** The start-up warning about the SSO secrets key, if any. */
export function ssoSecretsKeyWarning(config: AppConfig): string | null {
  if (config.sso.usingDevelopmentSecretsKey)
    return 'SSO_SECRETS_KEY is not set: client secrets are encrypted with the development key. Never do this in production.';
  if (config.sso.secretsKey === null)
    return 'SSO_SECRETS_KEY is not set: single sign-on is off (its routes answer 503 SSO_NOT_CONFIGURED)';
  return null;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads a variable; an empty or white-space value counts as unset. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
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

function list(env: Env, name: string): string[] | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ConfigError(name, 'must list at least one value');
  return items;
}

function database(env: Env): DatabaseConfig {
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
      const first = database({ DATABASE_URL: `mysql://${several[2] ?? ''}${withPorts[0]}${several[4]}` });
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

function trustProxy(env: Env): boolean | number | string | undefined {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  // Express also takes subnet names and comma-separated addresses or CIDR ranges.
  const named = ['loopback', 'linklocal', 'uniquelocal'];
  const valid = raw.split(',').every((part) => {
    const item = part.trim();
    const address = item.split('/')[0];
    return named.includes(item) || isIP(address) !== 0;
  });
  if (!valid) {
    throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count, or addresses/subnets, got "${raw}"`);
  }
  return raw;
}

/** REDIS_CLUSTER_NODES=host:port,…: a Redis Cluster's seed nodes; REDIS_URL names one Redis instead. */
function redisClusterNodes(env: Env): RedisNode[] | undefined {
  const items = list(env, 'REDIS_CLUSTER_NODES');
  if (!items) return undefined;
  if (read(env, 'REDIS_URL') !== undefined) {
    throw new ConfigError(
      'REDIS_CLUSTER_NODES',
      'and REDIS_URL are both set: set REDIS_URL for one Redis, or REDIS_CLUSTER_NODES for a Redis Cluster, not both',
    );
  }
  return items.map((item) => {
    const match = /^([A-Za-z0-9.-]+):(\d{1,5})$/.exec(item);
    if (!match || Number(match[2]) > 65535) {
      throw new ConfigError('REDIS_CLUSTER_NODES', `must list host:port pairs separated by commas, got "${item}"`);
    }
    return { host: match[1], port: Number(match[2]) };
  });
}

function redisKeyPrefix(env: Env): string {
  const raw = read(env, 'REDIS_KEY_PREFIX') ?? 'tenant-service:';
  if (!/^[!-~]{1,100}$/.test(raw)) {
    throw new ConfigError(
      'REDIS_KEY_PREFIX',
      `must be 1 to 100 printable ASCII characters without spaces, got "${raw}"`,
    );
  }
  return raw;
}

function publicBaseUrl(env: Env): string | undefined {
  const raw = url(env, 'PUBLIC_BASE_URL', ['http', 'https']);
  return raw?.replace(/\/+$/, '');
}

/**
 * SIGN_IN_URL: the page is its return address, so the page's own address must be on an allowed
 * host, never one that a request's Host header made up: PUBLIC_BASE_URL or ALLOWED_HOSTS is required.
 */
function signInUrl(env: Env): string | undefined {
  const raw = url(env, 'SIGN_IN_URL', ['http', 'https']);
  if (raw !== undefined && read(env, 'PUBLIC_BASE_URL') === undefined && read(env, 'ALLOWED_HOSTS') === undefined) {
    throw new ConfigError(
      'SIGN_IN_URL',
      'needs PUBLIC_BASE_URL or ALLOWED_HOSTS, so that the return address is on an allowed host',
    );
  }
  return raw;
}

function outbox(env: Env): OutboxConfig {
  const retryBaseMs = integer(env, 'OUTBOX_RETRY_BASE_MS', 2_000, 10, 3_600_000);
  const retryMaxMs = integer(env, 'OUTBOX_RETRY_MAX_MS', 600_000, 10, 86_400_000);
  if (retryMaxMs < retryBaseMs) {
    throw new ConfigError(
      'OUTBOX_RETRY_MAX_MS',
      `must not be less than OUTBOX_RETRY_BASE_MS (${retryBaseMs}), got "${retryMaxMs}"`,
    );
  }
  return {
    pollIntervalMs: integer(env, 'OUTBOX_POLL_INTERVAL_MS', 1_000, 10, 3_600_000),
    maxAttempts: integer(env, 'OUTBOX_MAX_ATTEMPTS', 15, 1, 1_000),
    retryBaseMs,
    retryMaxMs,
  };
}

/** Standard Webhooks secrets are 24 to 64 random bytes in base64, usually after `whsec_`. */
function webhookSecret(env: Env): string | undefined {
  const raw = read(env, 'WEBHOOK_SECRET');
  if (raw === undefined) return undefined;
  const base64 = raw.replace(/^whsec_/, '');
  const bytes = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(base64)
    ? Buffer.from(base64, 'base64').length
    : 0;
  if (bytes < 24 || bytes > 64) {
    throw new ConfigError(
      'WEBHOOK_SECRET',
      'must be a Standard Webhooks secret: whsec_ then 24 to 64 bytes in base64 (e.g. whsec_$(openssl rand -base64 32))',
    );
  }
  return raw;
}

function webhookUrls(env: Env, refusePrivateAddresses: boolean): string[] {
  const urls = [...new Set(list(env, 'WEBHOOK_URLS') ?? [])];
  if (urls.length > 20) throw new ConfigError('WEBHOOK_URLS', `must list at most 20 URLs, got ${urls.length}`);
  for (const raw of urls) {
    const parsed = url({ WEBHOOK_URLS: raw }, 'WEBHOOK_URLS', ['http', 'https']);
    const { username, password, hostname } = new URL(parsed!);
    // Logged and stored with every delivery: the signature authenticates the sender instead.
    if (username || password)
      throw new ConfigError('WEBHOOK_URLS', `must not carry credentials, got one for ${hostname}`);
    // Names are checked when they are resolved, at each delivery; literal addresses can be refused now.
    const literal = isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0 || hostname === 'localhost';
    if (refusePrivateAddresses && literal && isNonPublicAddress(hostname === 'localhost' ? '127.0.0.1' : hostname)) {
      throw new ConfigError(
        'WEBHOOK_URLS',
        `must not name a loopback, link-local or private address in production (${hostname}) unless WEBHOOK_ALLOW_PRIVATE=true`,
      );
    }
  }
  return urls;
}

function webhooks(env: Env, nodeEnv: NodeEnv): WebhooksConfig {
  const refusePrivateAddresses = nodeEnv === 'production' && !boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false);
  const urls = webhookUrls(env, refusePrivateAddresses);
  const secret = webhookSecret(env);
  if (urls.length > 0 && secret === undefined)
    throw new ConfigError('WEBHOOK_SECRET', 'must be set when WEBHOOK_URLS is');
  const retryBaseMs = integer(env, 'WEBHOOK_RETRY_BASE_MS', 5_000, 10, 3_600_000);
  const retryMaxMs = integer(env, 'WEBHOOK_RETRY_MAX_MS', 3_600_000, 10, 86_400_000);
  if (retryMaxMs < retryBaseMs) {
    throw new ConfigError(
      'WEBHOOK_RETRY_MAX_MS',
      `must not be less than WEBHOOK_RETRY_BASE_MS (${retryBaseMs}), got "${retryMaxMs}"`,
    );
  }
  return {
    urls,
    secret,
    refusePrivateAddresses,
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 5_000, 100, 30_000),
    pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 1_000, 10, 3_600_000),
    maxAttempts: integer(env, 'WEBHOOK_MAX_ATTEMPTS', 12, 1, 100),
    retryBaseMs,
    retryMaxMs,
  };
}

/** Draining takes 5 s in production by default, where a load balancer must notice; none elsewhere. */
function shutdown(env: Env, nodeEnv: NodeEnv): ShutdownConfig {
  const drainSeconds = integer(env, 'SHUTDOWN_DRAIN_SECONDS', nodeEnv === 'production' ? 5 : 0, 0, 300);
  const graceSeconds = integer(env, 'SHUTDOWN_GRACE_SECONDS', 25, 1, 600);
  if (graceSeconds <= drainSeconds) {
    throw new ConfigError(
      'SHUTDOWN_GRACE_SECONDS',
      `must be more than SHUTDOWN_DRAIN_SECONDS (${drainSeconds}), got "${graceSeconds}"`,
    );
  }
  return { drainMs: drainSeconds * 1_000, graceMs: graceSeconds * 1_000 };
}

/** TEST_MODE=true opens routes that move the clock and mint sessions: refused in production, and keyed. */
function testMode(env: Env, nodeEnv: NodeEnv): TestModeConfig {
  const enabled = boolean(env, 'TEST_MODE', false);
  if (!enabled) return { enabled };
  if (nodeEnv === 'production') throw new ConfigError('TEST_MODE', 'must not be true when NODE_ENV=production');
  const key = read(env, 'TEST_MODE_KEY');
  if (key === undefined || key.length < 16) {
    throw new ConfigError('TEST_MODE_KEY', 'must be set, at least 16 characters, when TEST_MODE=true');
  }
  return { enabled, key };
}

function domains(env: Env): DomainsConfig {
  const names = (name: string) => (list(env, name) ?? []).map((item) => item.toLowerCase().replace(/\.$/, ''));
  const resolverServers = list(env, 'DNS_RESOLVER_SERVERS') ?? [];
  for (const server of resolverServers) {
    // An IP address, IPv6 in brackets when a port follows; Node's resolver takes no names and aborts the process on port 0.
    const match =
      /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$/.exec(server) ?? /^([0-9a-fA-F:.]+)()$/.exec(server);
    const address = match?.[1] || match?.[2];
    const port = match?.[3];
    if (!address || isIP(address) === 0 || (port !== undefined && (Number(port) < 1 || Number(port) > 65535)))
      throw new ConfigError(
        'DNS_RESOLVER_SERVERS',
        `must list IP addresses, each with an optional port (1 to 65535), got "${server}"`,
      );
  }
  return {
    perOrg: integer(env, 'DOMAINS_PER_ORG', 10, 1, 1_000),
    denylist: names('DOMAIN_DENYLIST'),
    allowlist: names('DOMAIN_ALLOWLIST'),
    verificationTtlSeconds: integer(env, 'DOMAIN_VERIFICATION_TTL_SECONDS', 7 * 86_400, 1, 31_536_000),
    recheckSeconds: integer(env, 'DOMAIN_RECHECK_SECONDS', 86_400, 1, 31_536_000),
    graceSeconds: integer(env, 'DOMAIN_GRACE_SECONDS', 7 * 86_400, 0, 31_536_000),
    resolverServers,
    dnsTimeoutMs: integer(env, 'DNS_TIMEOUT_MS', 5_000, 10, 60_000),
  };
}

/** SSO_SECRETS_KEY: 32 bytes, as 64 hexadecimal digits or in base64. */
function ssoSecretsKey(env: Env, nodeEnv: NodeEnv): Pick<SsoConfig, 'secretsKey' | 'usingDevelopmentSecretsKey'> {
  const raw = read(env, 'SSO_SECRETS_KEY');
  if (raw === undefined)
    return nodeEnv === 'production'
      ? { secretsKey: null, usingDevelopmentSecretsKey: false }
      : { secretsKey: DEVELOPMENT_SSO_SECRETS_KEY, usingDevelopmentSecretsKey: true };
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) key = Buffer.from(raw, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=$/.test(raw)) key = Buffer.from(raw, 'base64');
  if (key?.length !== 32)
    throw new ConfigError(
      'SSO_SECRETS_KEY',
      'must be 32 bytes as 64 hexadecimal digits or in base64 (e.g. $(openssl rand -base64 32))',
    );
  return { secretsKey: key, usingDevelopmentSecretsKey: false };
}

/** SSO_RETURN_ORIGINS: origins only (scheme, host, port), http or https. */
function returnOrigins(env: Env): string[] {
  return (list(env, 'SSO_RETURN_ORIGINS') ?? []).map((raw) => {
    const parsed = new URL(url({ SSO_RETURN_ORIGINS: raw }, 'SSO_RETURN_ORIGINS', ['http', 'https'])!);
    if (parsed.username || parsed.password || parsed.search || parsed.hash || parsed.pathname !== '/')
      throw new ConfigError('SSO_RETURN_ORIGINS', `must list origins only (scheme://host[:port]), got "${raw}"`);
    return parsed.origin;
  });
}

function sso(env: Env, nodeEnv: NodeEnv): SsoConfig {
  const production = nodeEnv === 'production';
  const allowPrivate = boolean(env, 'SSO_ALLOW_PRIVATE', false);
  return {
    ...ssoSecretsKey(env, nodeEnv),
    connectionsPerOrg: integer(env, 'SSO_CONNECTIONS_PER_ORG', 3, 1, 100),
    refusePrivateAddresses: production && !allowPrivate,
    httpsOnly: production,
    httpTimeoutMs: integer(env, 'SSO_HTTP_TIMEOUT_MS', 5_000, 100, 60_000),
    clockSkewSeconds: integer(env, 'SSO_CLOCK_SKEW_SECONDS', 120, 0, 600),
    returnOrigins: returnOrigins(env),
    discoverRateLimit: integer(env, 'SSO_DISCOVER_RATE_LIMIT', 60, 1, 1_000_000),
  };
}

export function parseConfig(env: Env): AppConfig {
  const nodeEnv = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development');
  const jwtSecret = read(env, 'AUTH_JWT_SECRET');
  const identityStore = oneOf(env, 'IDENTITY_STORE', ['local', 'cognito'] as const, 'local');
  if (!jwtSecret && nodeEnv === 'production' && identityStore === 'local') {
    throw new ConfigError('AUTH_JWT_SECRET', 'must be set when NODE_ENV=production');
  }
  const jwtSecretBytes = jwtSecret === undefined ? 0 : Buffer.byteLength(jwtSecret);
  if (jwtSecret && jwtSecretBytes < MIN_JWT_SECRET_BYTES && nodeEnv === 'production' && identityStore === 'local') {
    throw new ConfigError(
      'AUTH_JWT_SECRET',
      `must be at least ${MIN_JWT_SECRET_BYTES} bytes when NODE_ENV=production (an HS256 key), got ${jwtSecretBytes}`,
    );
  }
  const cognito: CognitoConfig = {
    userPoolId: read(env, 'COGNITO_USER_POOL_ID'),
    clientId: read(env, 'COGNITO_CLIENT_ID'),
    region: read(env, 'AWS_REGION'),
    endpoint: url(env, 'COGNITO_ENDPOINT', ['http', 'https'])?.replace(/\/+$/, ''),
    superAdminGroup: read(env, 'COGNITO_SUPER_ADMIN_GROUP') ?? 'super_admin',
  };
  if (identityStore === 'cognito') {
    for (const [variable, value] of [
      ['COGNITO_USER_POOL_ID', cognito.userPoolId],
      ['COGNITO_CLIENT_ID', cognito.clientId],
      ['AWS_REGION', cognito.region],
    ] as const) {
      if (!value) throw new ConfigError(variable, 'must be set when IDENTITY_STORE=cognito');
    }
  }
  const sessionCookieName = read(env, 'SESSION_COOKIE_NAME') ?? 'id_token';
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(sessionCookieName)) {
    throw new ConfigError('SESSION_COOKIE_NAME', `is not a valid cookie name: "${sessionCookieName}"`);
  }
  const mailFrom = read(env, 'MAIL_FROM') ?? 'no-reply@localhost';
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(mailFrom) && !/^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(mailFrom)) {
    throw new ConfigError('MAIL_FROM', `must be an e-mail address, got "${mailFrom}"`);
  }

  return {
    nodeEnv,
    port: integer(env, 'PORT', 3000, 0, 65535),
    database: database(env),
    migrationsRun: boolean(env, 'DB_MIGRATIONS_RUN', true),
    identityStore,
    authJwtSecret: jwtSecret ?? DEVELOPMENT_JWT_SECRET,
    usingDevelopmentJwtSecret: !jwtSecret,
    sessionCookieName,
    cognito,
    smtpUrl: url(env, 'SMTP_URL', ['smtp', 'smtps']),
    mailFrom,
    redisUrl: url(env, 'REDIS_URL', ['redis', 'rediss']),
    redisClusterNodes: redisClusterNodes(env),
    redisKeyPrefix: redisKeyPrefix(env),
    inviteRateLimit: integer(env, 'INVITE_RATE_LIMIT', 10, 1, 1_000_000),
    inviteRateWindowSeconds: integer(env, 'INVITE_RATE_WINDOW_SECONDS', 3600, 1, 31_536_000),
    bulkInviteMaxRows: integer(env, 'BULK_INVITE_MAX_ROWS', 100, 1, 1_000),
    scimRateLimit: integer(env, 'SCIM_RATE_LIMIT', 600, 1, 1_000_000),
    trustProxy: trustProxy(env),
    publicBaseUrl: publicBaseUrl(env),
    allowedHosts: list(env, 'ALLOWED_HOSTS')?.map((host) => host.toLowerCase()),
    allowedOrigins: list(env, 'ALLOWED_ORIGINS'),
    invitationPage: boolean(env, 'INVITATION_PAGE', true),
    signInUrl: signInUrl(env),
    // Test suites stay quiet unless one asks for logs.
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info'),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    shutdown: shutdown(env, nodeEnv),
    outbox: outbox(env),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    tenantNameCacheSeconds: integer(env, 'TENANT_NAME_CACHE_SECONDS', 30, 0, 86_400),
    webhooks: webhooks(env, nodeEnv),
    testMode: testMode(env, nodeEnv),
    domains: domains(env),
    roles: {
      perOrg: integer(env, 'ROLES_PER_ORG', 25, 1, 1_000),
      perMember: integer(env, 'ROLES_PER_MEMBER', 10, 1, 100),
    },
    sso: sso(env, nodeEnv),
  };
}
