import { Injectable, Logger, Type } from '@nestjs/common';
import type { Request } from 'express';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { SessionAsk, SessionProbe } from '../database/session-probe';
import { Caller } from './caller';
import { sessionLiveness } from './session-liveness';
import { SessionsStore } from './sessions.store';

const sessionConfirmingGuards = new Set<unknown>();
/** A guard that confirms the session itself, beside its own reads (SessionCheck.verify): SessionGuard leaves it to it. */
export const ConfirmsSessions = (): ClassDecorator => (target) => {
  sessionConfirmingGuards.add(target);
};
export const confirmsSessions = (guard: Type): boolean => sessionConfirmingGuards.has(guard);

/**
 * Whether the request's verified token is still a session (docs/sessions.md), read at the time of
 * asking, never cached: one read per request, whichever guard asks first (SessionGuard, or the org
 * and super-admin guards beside their own reads). A session that ended leaves the request without a
 * caller, exactly as an expired token does. A live session's last use is written at most once per
 * SESSION_TOUCH_SECONDS, after the answer is decided.
 */
@Injectable()
export class SessionCheck {
  private readonly logger = new Logger('Session');
  private readonly checks = new WeakMap<Request, Promise<Caller | undefined>>();

  constructor(
    private readonly store: SessionsStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The request's caller once its session is confirmed (request.user updated); undefined when it ended. */
  verify(request: Request): Promise<Caller | undefined> {
    return this.memoised(request, async (claimed) => this.judged(claimed, await this.store.probe(sessionAsk(claimed))));
  }

  /** As verify, from the probe that the guard's own read brought (findOrgCaller): no read of its own. */
  verifyWith(request: Request, probe: SessionProbe): Promise<Caller | undefined> {
    return this.memoised(request, (claimed) => Promise.resolve(this.judged(claimed, probe)));
  }

  private memoised(request: Request, check: (claimed: Caller) => Promise<Caller | undefined>) {
    let checked = this.checks.get(request);
    if (!checked) {
      const claimed = request.user as Caller | undefined;
      checked = claimed ? check(claimed) : Promise.resolve(undefined);
      checked.then((caller) => (request.user = caller)).catch(() => undefined);
      this.checks.set(request, checked);
    }
    return checked;
  }

  private judged(caller: Caller, probe: SessionProbe): Caller | undefined {
    const { sid } = sessionAsk(caller);
    const now = this.clock.now();
    const { touchSeconds } = this.config.sessions;
    const liveness = sessionLiveness({ userId: caller.id, sid, issuedAt: caller.issuedAt }, probe, now, touchSeconds);
    if (!liveness.live) {
      this.logger.debug(`No session: ${liveness.why}`);
      return undefined;
    }
    if (liveness.touch && sid !== null) {
      const staleBefore = new Date(now.getTime() - touchSeconds * 1000);
      this.store
        .touch(sid, now, staleBefore)
        .catch((error: unknown) => this.logger.warn(`Could not write a session's last use: ${messageOf(error)}`));
    }
    return liveness.sso ? { ...caller, sso: liveness.sso } : caller;
  }
}

/** Whose session a caller's token claims: its subject and `sid`. */
export const sessionAsk = (caller: Caller): SessionAsk => ({ userId: caller.id, sid: caller.sessionId ?? null });
