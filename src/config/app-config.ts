/**
 * The validated, typed configuration. Built once from the environment by `parseConfig`;
 * nothing else in the service reads `process.env`. Each concern's settings and their checks are
 * in a file of their own here (database-config.ts, sso-config.ts, ...): src/config/ sits below
 * every folder that reads them (eslint.config.mjs's layers), the features' folders above.
 */

import { DatabaseConfig, databaseSettings } from './database-config';
import { DomainsConfig, domainSettings } from './domains-config';
import { boolean, Env, integer, list, NODE_ENVS, NodeEnv, oneOf, url } from './env-values';
import {
  authJwtSecret,
  CognitoConfig,
  cognitoSettings,
  DEVELOPMENT_JWT_SECRET,
  IDENTITY_STORES,
  IdentityStoreKind,
  sessionCookieName,
} from './identity-config';
import { mailFrom, OutboxConfig, outboxSettings } from './mail-config';
import { RedisNode, redisClusterNodes, redisKeyPrefix } from './redis-config';
import { publicBaseUrl, ShutdownConfig, shutdownSettings, signInUrl, trustProxy } from './server-config';
import { SessionsConfig, sessionSettings } from './sessions-config';
import { SetupLinksConfig, setupLinkSettings } from './setup-links-config';
import { SsoConfig, ssoSettings } from './sso-config';
import { TestModeConfig, testModeSettings } from './test-mode-config';
import { WebhooksConfig, webhookSettings } from './webhooks-config';

/** Custom roles (docs/roles.md). */
export interface RolesConfig {
  /** Custom roles an organisation may define (ROLE_LIMIT beyond). */
  perOrg: number;
  /** Custom roles a member may hold, and an invitation carry (MEMBER_ROLE_LIMIT beyond). */
  perMember: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export abstract class AppConfig {
  abstract readonly nodeEnv: NodeEnv;
  abstract readonly port: number;
  abstract readonly database: DatabaseConfig;
  abstract readonly migrationsRun: boolean;
  abstract readonly identityStore: IdentityStoreKind;
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
  abstract readonly sessions: SessionsConfig;
  abstract readonly setupLinks: SetupLinksConfig;
}

/** Reads every setting, in the order that decides which of several bad values is reported. */
export function parseConfig(env: Env): AppConfig {
  const nodeEnv = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development');
  const identityStore = oneOf(env, 'IDENTITY_STORE', IDENTITY_STORES, 'local');
  const jwtSecret = authJwtSecret(env, nodeEnv, identityStore);
  const cognito = cognitoSettings(env, identityStore);
  const cookieName = sessionCookieName(env);
  const sender = mailFrom(env);

  return {
    nodeEnv,
    port: integer(env, 'PORT', 3000, 0, 65535),
    database: databaseSettings(env),
    migrationsRun: boolean(env, 'DB_MIGRATIONS_RUN', true),
    identityStore,
    authJwtSecret: jwtSecret ?? DEVELOPMENT_JWT_SECRET,
    usingDevelopmentJwtSecret: !jwtSecret,
    sessionCookieName: cookieName,
    cognito,
    smtpUrl: url(env, 'SMTP_URL', ['smtp', 'smtps']),
    mailFrom: sender,
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
    shutdown: shutdownSettings(env, nodeEnv),
    outbox: outboxSettings(env),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    tenantNameCacheSeconds: integer(env, 'TENANT_NAME_CACHE_SECONDS', 30, 0, 86_400),
    webhooks: webhookSettings(env, nodeEnv),
    testMode: testModeSettings(env, nodeEnv),
    domains: domainSettings(env),
    roles: {
      perOrg: integer(env, 'ROLES_PER_ORG', 25, 1, 1_000),
      perMember: integer(env, 'ROLES_PER_MEMBER', 10, 1, 100),
    },
    sso: ssoSettings(env, nodeEnv),
    sessions: sessionSettings(env),
    setupLinks: setupLinkSettings(env),
  };
}
