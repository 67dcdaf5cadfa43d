import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { AuditRows } from '../audit/audit-rows';
import { AuditActor, auditActor, sessionEvents } from '../audit/audit-event';
import { Caller, OrgCaller } from '../auth/caller';
import { ListedSession, SessionsStore } from '../auth/sessions.store';
import { ApiError, messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { USER_NOT_FOUND } from '../common/messages';
import { AppConfig } from '../config/app-config';
import { SessionRevocationReason } from '../database/entities/session.entity';
import { IdentityStore } from '../identity/identity-store';
import { SessionResponse, SessionsResponse } from './dto/sessions.response';
import { SESSION_ERRORS, sessionRefusal } from './sessions.messages';

/** Whose sessions end, for an administrator's revocation or an automatic one. */
interface Person {
  id: string;
  email: string | null;
  tenantId: string | null;
}

/** A page of the sessions that an organisation's or a connection's end takes at a time. */
const BATCH = 500;

/**
 * The sessions that the service issued (docs/sessions.md): a person's view and ends, an
 * administrator's, and the ends that follow a removal, a deprovisioning, a deletion. Every end is a
 * `session.revoked` event in the transaction that ends it; a "not before" is `sessions.revoked_all`.
 */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);

  constructor(
    private readonly store: SessionsStore,
    private readonly auditRows: AuditRows,
    private readonly identity: IdentityStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** GET /api/me/sessions and GET /api/org/members/{id}/sessions: live ones, newest first. */
  async list(personId: string, currentSessionId: string | undefined): Promise<SessionsResponse> {
    const now = this.clock.now();
    const sessions = (await this.store.liveOf(personId, now)).filter((session) => !idle(session, now));
    return { sessions: sessions.map((session) => toSessionResponse(session, currentSessionId)) };
  }

  /** DELETE /api/me/sessions/{id}: one of the caller's own; another's or an ended one is not found. */
  async revokeOwn(caller: Caller, id: string): Promise<void> {
    const now = this.clock.now();
    const session = (await this.store.liveOf(caller.id, now)).find((live) => live.id === id && !idle(live, now));
    if (!session) throw sessionRefusal(HttpStatus.NOT_FOUND, SESSION_ERRORS.notFound);
    await this.revoke(session, caller, auditActor(caller), 'self', now);
  }

  /**
   * Ends the caller's current session (sign-out), if the token names one; the OIDC provider's
   * end-session URL for it when the connection's provider has one.
   */
  async signOut(caller: Caller | undefined): Promise<{ clientId: string; endSessionEndpoint: string } | null> {
    const sid = caller?.sessionId;
    if (!caller || sid === undefined) return null;
    const now = this.clock.now();
    const session = (await this.store.liveOf(caller.id, now)).find((live) => live.id === sid);
    if (session) await this.revoke(session, caller, auditActor(caller), 'sign_out', now);
    const connection = session?.connection ? await this.store.oidcConnectionOf(sid) : null;
    const endSessionEndpoint = connection && endSessionEndpointOf(connection.discovery);
    return connection && endSessionEndpoint ? { clientId: connection.clientId, endSessionEndpoint } : null;
  }

  /** DELETE /api/me/sessions: every session of the caller, and a "not before" for the tokens without `sid`. */
  async revokeAllOwn(caller: Caller): Promise<void> {
    await this.revokeAll({ id: caller.id, email: caller.email, tenantId: caller.tenantId }, auditActor(caller), 'self');
  }

  /** The member of the caller's organisation whose sessions an owner or admin reads or ends; 404 otherwise. */
  async memberOf(caller: OrgCaller, id: string, ending: boolean): Promise<Person> {
    const member = await this.identity.findById(id);
    if (!member || member.tenantId !== caller.tenantId) throw new ApiError(HttpStatus.NOT_FOUND, USER_NOT_FOUND);
    if (ending && caller.role !== 'owner' && member.role === 'owner')
      throw new ApiError(HttpStatus.FORBIDDEN, SESSION_ERRORS.adminCannotRevokeOwner);
    return member;
  }

  /** DELETE /api/org/members/{id}/sessions. */
  async revokeMemberSessions(caller: OrgCaller, id: string): Promise<void> {
    await this.revokeAll(await this.memberOf(caller, id, true), auditActor(caller), 'member_admin');
  }

  /** DELETE /api/admin/users/{id}/sessions. */
  async revokeUserSessions(caller: Caller, id: string): Promise<void> {
    const user = await this.identity.findById(id);
    if (!user) throw new ApiError(HttpStatus.NOT_FOUND, USER_NOT_FOUND);
    await this.revokeAll(user, auditActor(caller), 'super_admin');
  }

  /**
   * Ends the sessions of a person who left (`tenantId`: those made for that organisation; undefined:
   * all, their account went). No "not before": a stale claim grants nothing, authorisation reads the store.
   */
  async endPersonSessions(
    person: AuditActor,
    tenantId: string | undefined,
    reason: SessionRevocationReason,
    actor: AuditActor | null,
  ): Promise<void> {
    const now = this.clock.now();
    for (const session of await this.store.liveFor(person.id, tenantId, now))
      await this.revoke(session, person, actor, reason, now);
  }

  /** Ends the sessions made for an organisation (its deletion) or by a connection (deactivated, deleted). */
  async endSessionsOf(
    what: { tenantId: string } | { connectionId: string },
    reason: SessionRevocationReason,
    actor: AuditActor | null,
  ): Promise<void> {
    const [column, value] =
      'tenantId' in what ? (['tenant_id', what.tenantId] as const) : (['connection_id', what.connectionId] as const);
    for (;;) {
      const now = this.clock.now();
      const batch = await this.store.liveWhere(column, value, now, BATCH);
      for (const session of batch) await this.revoke(session, { id: session.userId, email: null }, actor, reason, now);
      if (batch.length < BATCH) return;
    }
  }

  /** Every session of the person, then the "not before"; in cognito mode the pool's own sessions too. */
  private async revokeAll(person: Person, actor: AuditActor, reason: SessionRevocationReason): Promise<void> {
    await this.endPersonSessions(person, undefined, reason, actor);
    const now = this.clock.now();
    const notBefore = Math.floor(now.getTime() / 1000);
    const event = sessionEvents.sessionsRevokedAll(person, person.tenantId, actor, reason, new Date(notBefore * 1000));
    await this.store.setNotBefore(person.id, notBefore, this.auditRows.of(event));
    try {
      await this.identity.signOutEverywhere(person.id);
    } catch (error) {
      // The "not before" holds whatever the pool says: its refresh tokens live on, its id tokens do not pass.
      this.logger.warn(`Could not sign ${person.id} out of the identity store: ${messageOf(error)}`);
    }
  }

  private async revoke(
    session: ListedSession,
    person: AuditActor,
    actor: AuditActor | null,
    reason: SessionRevocationReason,
    now: Date,
  ): Promise<boolean> {
    const event = sessionEvents.sessionRevoked(session, { id: person.id, email: person.email }, actor, reason);
    return this.store.revoke(session.id, reason, now, this.auditRows.of(event));
  }
}

/** A session unused past its idle limit has ended, whether or not a request found it so. */
const idle = (session: ListedSession, now: Date): boolean =>
  session.idleSeconds > 0 && session.lastUsedAt.getTime() + session.idleSeconds * 1000 <= now.getTime();

function toSessionResponse(session: ListedSession, currentSessionId: string | undefined): SessionResponse {
  return {
    id: session.id,
    current: session.id === currentSessionId,
    via:
      session.kind === 'sso' && session.connection
        ? { type: 'sso', connection: session.connection }
        : { type: session.kind },
    createdAt: session.createdAt.toISOString(),
    lastUsedAt: session.lastUsedAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    userAgent: session.userAgent,
    ip: session.ip,
  };
}

/** The discovery document's end_session_endpoint, as the connection keeps it. */
function endSessionEndpointOf(discovery: string): string | null {
  try {
    const endpoint = (JSON.parse(discovery) as { end_session_endpoint?: unknown }).end_session_endpoint;
    return typeof endpoint === 'string' ? endpoint : null;
  } catch {
    return null;
  }
}
