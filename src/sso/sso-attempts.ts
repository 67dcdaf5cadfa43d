import { Injectable } from '@nestjs/common';
import { NewAuditEvent } from '../audit/audit-event';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { SsoConnectionEntity } from '../database/entities';
import { connectionEvent } from './sso-events';
import { CallbackRefusal } from './sso-protocol';
import { SsoSignInsStore } from './sso-sign-ins.store';
import { ssoRefusal } from './sso.messages';

/** What an attempt records of the person. */
export type AttemptPerson = Pick<CallbackRefusal, 'email' | 'subject'>;

/**
 * A connection's attempts (docs/sso.md, "Signing in"): every callback's outcome, and a start refused
 * for the connection's own fault (its secret unreadable); a refusal also an `sso.login_failed` event.
 */
@Injectable()
export class SsoAttempts {
  constructor(
    private readonly signIns: SsoSignInsStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** A refusal recorded, with its sso.login_failed event, and answered. */
  async refuse(connection: SsoConnectionEntity, refused: CallbackRefusal): Promise<never> {
    const { code, reason, email, test } = refused;
    await this.record(connection, code, refused, test ? `test sign-in: ${reason}` : reason, [
      connectionEvent('sso.login_failed', connection, null, {
        reason: code,
        detail: reason,
        ...(email !== null && { email }),
        ...(test && { test: true }),
      }),
    ]);
    throw ssoRefusal(refused.status, code, reason);
  }

  async record(
    connection: SsoConnectionEntity,
    result: string,
    person: AttemptPerson,
    detail: string,
    events: NewAuditEvent[],
  ): Promise<void> {
    await this.signIns.recordAttempt(
      {
        id: this.ids.uuid(),
        connectionId: connection.id,
        tenantId: connection.tenantId,
        at: this.clock.now(),
        result,
        email: person.email?.slice(0, 320) ?? null,
        subject: person.subject?.slice(0, 255) ?? null,
        detail: detail.slice(0, 1000),
      },
      events,
    );
  }
}
