/** Whether a verified token is still a session (docs/sessions.md): the rules, apart from any read. */
import { SessionProbe } from '../database/session-probe';

/** The claims that the check reads beside the person: the session's id and when the token was issued. */
export interface SessionClaimsSeen {
  userId: string;
  sid: string | null;
  /** Epoch seconds; undefined when the token has no `iat`. */
  issuedAt: number | undefined;
}

/** A session that ended, or the single sign-on that made a live one. */
export type SessionLiveness =
  | { live: false; why: string }
  | { live: true; sso: { connectionId: string; tenantId: string; active: boolean } | null; touch: boolean };

/**
 * A token with `sid`: its row exists, is the person's, unrevoked, unexpired and not idle. A token
 * without: issued at or after the person's "not before", if they have one. `touchSeconds`: how old
 * the last use written may be before this request writes it again.
 */
export function sessionLiveness(
  claims: SessionClaimsSeen,
  probe: SessionProbe,
  now: Date,
  touchSeconds: number,
): SessionLiveness {
  if (claims.sid === null) {
    if (probe.notBefore !== null && (claims.issuedAt === undefined || claims.issuedAt < probe.notBefore))
      return { live: false, why: "the token was issued before its person's sessions were ended" };
    return { live: true, sso: null, touch: false };
  }
  const session = probe.session;
  if (!session || session.userId !== claims.userId) return { live: false, why: 'the session (sid) is unknown' };
  if (session.revokedAt !== null) return { live: false, why: 'the session was revoked' };
  const at = now.getTime();
  if (session.expiresAt.getTime() <= at) return { live: false, why: 'the session expired' };
  const idleSince = session.lastUsedAt.getTime();
  if (session.idleSeconds > 0 && idleSince + session.idleSeconds * 1000 <= at)
    return { live: false, why: 'the session was idle too long' };
  const { connection } = session;
  return {
    live: true,
    sso: connection && {
      connectionId: connection.id,
      tenantId: connection.tenantId,
      active: connection.status === 'active',
    },
    touch: idleSince + touchSeconds * 1000 <= at,
  };
}
