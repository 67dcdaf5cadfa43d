/** The settings of the sessions that the service issues (docs/sessions.md). */

import { Env, integer } from './env-values';

export interface SessionsConfig {
  /** A session's absolute lifetime (SESSION_TTL_SECONDS): single sign-on's, test mode's, the CLI's without --ttl. */
  ttlSeconds: number;
  /** Unused this long, a session ends (SESSION_IDLE_SECONDS); 0: no idle limit. */
  idleSeconds: number;
  /** A session's last use is written at most once per this many seconds (SESSION_TOUCH_SECONDS). */
  touchSeconds: number;
  /** Ended sessions are kept this many days, then purged (SESSION_RETENTION_DAYS). */
  retentionDays: number;
}

export function sessionSettings(env: Env): SessionsConfig {
  return {
    ttlSeconds: integer(env, 'SESSION_TTL_SECONDS', 28_800, 60, 31_536_000),
    idleSeconds: integer(env, 'SESSION_IDLE_SECONDS', 0, 0, 31_536_000),
    touchSeconds: integer(env, 'SESSION_TOUCH_SECONDS', 60, 1, 86_400),
    retentionDays: integer(env, 'SESSION_RETENTION_DAYS', 30, 1, 36_500),
  };
}
