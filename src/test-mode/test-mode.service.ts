import { HttpStatus, Injectable } from '@nestjs/common';
import { testModeEvents } from '../audit/audit-event';
import { AuditRecorder } from '../audit/audit-recorder';
import { SessionTokenIssuer } from '../auth/session-token-issuer';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { sameEmail } from '../common/email-comparison';
import { USER_NOT_FOUND } from '../common/messages';
import { AppConfig } from '../config/app-config';
import { userPoolOf } from '../config/identity-config';
import { IdentityStore, IdentityUser } from '../identity/identity-store';
import { buildInvitationMessage } from '../mail/invitation-message';
import { storedEmailOf } from '../mail/outbox/invitation-outbox';
import { InviteCounters } from '../rate-limit/invite-counters';
import { ClockChangeRequest, TestSessionRequest } from './dto/test-mode.requests';
import {
  ClockResponse,
  MailboxEmail,
  MailboxResponse,
  RemovedTenantsResponse,
  TestSessionResponse,
} from './dto/test-mode.responses';
import { SharedClockOffset } from './shared-clock-offset';
import { TEST_MODE_ERRORS } from './test-mode.messages';
import { TestModeStore } from './test-mode.store';

/** Tenants removed per batch, each batch with all its rows. */
const REMOVAL_BATCH_SIZE = 100;
/** Members detached from a tenant per call of the identity store. */
const DETACH_BATCH_SIZE = 500;

/** What the test-mode routes do (docs/test-mode.md); each call records its own `test.*` audit event. */
@Injectable()
export class TestModeService {
  constructor(
    private readonly store: TestModeStore,
    private readonly audit: AuditRecorder,
    private readonly identity: IdentityStore,
    private readonly tokens: SessionTokenIssuer,
    private readonly clockOffset: SharedClockOffset,
    private readonly clock: Clock,
    private readonly counters: InviteCounters,
    private readonly config: AppConfig,
  ) {}

  /** The e-mails to `to` that the outbox holds (sent or still due), newest first. */
  async mailbox(to: string): Promise<MailboxResponse> {
    const rows = await this.store.mailbox(to.toLowerCase());
    const emails = rows
      .filter(({ recipient }) => sameEmail(recipient, to))
      .map(({ outboxRow }): MailboxEmail => {
        const { email } = storedEmailOf(outboxRow);
        const { subject, text } = buildInvitationMessage(email);
        const token = decodeURIComponent(email.link.slice(email.link.lastIndexOf('/') + 1));
        return { subject, text, link: email.link, token, sentAt: outboxRow.sentAt?.toISOString() ?? null };
      });
    await this.audit.record(testModeEvents.mailboxRead(to, emails.length));
    return { emails };
  }

  /** A session for a user of the local store, or for claims that need no user record. */
  async session({ userId, sub, email }: TestSessionRequest): Promise<TestSessionResponse> {
    if (userPoolOf(this.config)) {
      throw new ApiError(HttpStatus.BAD_REQUEST, TEST_MODE_ERRORS.sessionsNeedLocalStore);
    }
    const byId = userId !== undefined && sub === undefined && email === undefined;
    const byClaims = userId === undefined && !!sub && !!email;
    if (!byId && !byClaims) throw new ApiError(HttpStatus.BAD_REQUEST, TEST_MODE_ERRORS.sessionSubject);
    const user = byId ? await this.identity.findById(userId) : claimsOnly(sub!, email!);
    if (!user) throw new ApiError(HttpStatus.NOT_FOUND, USER_NOT_FOUND);
    // SESSION_TTL_SECONDS, by test mode's clock too: a suite that moves the clock past a window keeps its sessions.
    const { token } = await this.tokens.issue(user, { kind: 'test' });
    await this.audit.record(testModeEvents.sessionIssued(user, user.tenantId));
    return { token, cookie: `${this.config.sessionCookieName}=${token}; Path=/; HttpOnly; SameSite=Lax` };
  }

  async changeClock({ advanceSeconds, reset }: ClockChangeRequest): Promise<ClockResponse> {
    if ((advanceSeconds === undefined) === (reset !== true)) {
      throw new ApiError(HttpStatus.BAD_REQUEST, TEST_MODE_ERRORS.clockChange);
    }
    const offsetMs = reset ? await this.clockOffset.reset() : await this.advanceClock(advanceSeconds! * 1_000);
    const offsetSeconds = Math.round(offsetMs / 1_000);
    await this.audit.record(testModeEvents.clockMoved(offsetSeconds));
    return { offsetSeconds, now: this.clock.now().toISOString() };
  }

  async clearRateLimits(): Promise<void> {
    await this.counters.clear();
    await this.audit.record(testModeEvents.rateLimitsCleared());
  }

  /**
   * Removes the tenants named `namePrefix…`, REMOVAL_BATCH_SIZE at a time, until none is left: their
   * members are detached (users are kept), then their rows are deleted.
   */
  async removeTenants(namePrefix: string): Promise<RemovedTenantsResponse> {
    let removed = 0;
    for (;;) {
      const batch = await this.store.tenantsNamed(namePrefix, REMOVAL_BATCH_SIZE);
      const ids = batch.filter(({ name }) => name.startsWith(namePrefix)).map(({ id }) => id);
      if (ids.length === 0) break;
      for (const id of ids) while ((await this.identity.detachTenantMembers(id, DETACH_BATCH_SIZE)) > 0);
      await this.store.removeTenants(ids);
      removed += ids.length;
      if (batch.length < REMOVAL_BATCH_SIZE) break;
    }
    await this.audit.record(testModeEvents.tenantsRemoved(namePrefix, removed));
    return { removed };
  }

  /**
   * The invitation limit's windows count in their storage's own time (Redis's, when shared): they
   * are moved with the clock, once, in the storage every instance reads. A reset leaves them.
   */
  private async advanceClock(ms: number): Promise<number> {
    await this.counters.advance(ms);
    return this.clockOffset.advance(ms);
  }
}

const claimsOnly = (sub: string, email: string): IdentityUser => ({
  id: sub,
  email,
  platformRole: null,
  userType: null,
  tenantId: null,
  role: null,
});
