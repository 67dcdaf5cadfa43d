import { Injectable, Logger } from '@nestjs/common';
import { auditActor } from '../audit/audit-event';
import { messageOf } from '../common/api-error';
import { OrgCaller } from '../auth/caller';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { InvitationEntity } from '../database/entities';
import { InvitationEmail } from '../mail/invitation-mailer';
import { invitationLink } from '../mail/invitation-message';
import { InvitationOutboxWorker } from '../mail/outbox/invitation-outbox.worker';
import { Metrics } from '../metrics/metrics';
import { INVITATION_VALIDITY_MS, tenantDisplayName } from './invitation';
import { InvitationsStore, InvitationWriteCondition } from './invitations.store';

/** Invitations stored per transaction by issueMany. */
export const ISSUE_BATCH_SIZE = 50;

/**
 * Spec 4.9 rules 9–10, shared by the invite and the resend: a new pending invitation
 * from the caller, valid 7 days, stored with its e-mail in one transaction; the outbox worker
 * sends the e-mail after the response, and retries a failed send.
 */
@Injectable()
export class InvitationIssuer {
  private readonly logger = new Logger('Invitations');

  constructor(
    private readonly invitations: InvitationsStore,
    private readonly outboxWorker: InvitationOutboxWorker,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /**
   * `origin` is the request's (see RequestOrigin): the link's base unless PUBLIC_BASE_URL is set.
   * `roles`: the custom roles the invitation carries, checked by the caller (docs/roles.md).
   * Null, and nothing stored, when the condition (InvitationsStore.create) held the write back.
   */
  async issue(
    caller: OrgCaller,
    email: string,
    role: string,
    origin: string,
    condition?: InvitationWriteCondition,
    roles: string[] = [],
  ): Promise<InvitationEntity | null> {
    const [{ invitation, email: message }] = await this.prepare(caller, [{ email, role }], origin);
    if (!(await this.invitations.create(invitation, message, auditActor(caller), condition, roles))) return null;
    this.metrics.invitationCreated();
    this.outboxWorker.kick();
    return invitation;
  }

  /**
   * New invitations from the caller, as issue makes one, stored ISSUE_BATCH_SIZE to a transaction:
   * a request's rows cost a few round trips, and no transaction holds its locks for long. A batch
   * that fails is stored not at all; the next ones are still tried. Answers, in the order given,
   * each invitation or the error that kept its batch from being stored.
   */
  async issueMany(
    caller: OrgCaller,
    rows: { email: string; role: string; roles?: string[] }[],
    origin: string,
  ): Promise<(InvitationEntity | Error)[]> {
    const prepared = (await this.prepare(caller, rows, origin)).map((row, index) => ({
      ...row,
      roles: rows[index].roles,
    }));
    const outcomes: (InvitationEntity | Error)[] = [];
    for (let start = 0; start < prepared.length; start += ISSUE_BATCH_SIZE) {
      const batch = prepared.slice(start, start + ISSUE_BATCH_SIZE);
      try {
        await this.invitations.createMany(batch, auditActor(caller));
        batch.forEach(({ invitation }) => {
          this.metrics.invitationCreated();
          outcomes.push(invitation);
        });
      } catch (error) {
        // The answer says which rows failed; the log says why.
        this.logger.error(`Storing ${batch.length} invitations in one transaction failed: ${messageOf(error)}`);
        outcomes.push(...batch.map(() => error as Error));
      }
    }
    if (outcomes.some((outcome) => !(outcome instanceof Error))) this.outboxWorker.kick();
    return outcomes;
  }

  /** Each row's pending invitation, valid 7 days, and the e-mail that announces it. */
  private async prepare(
    caller: OrgCaller,
    rows: { email: string; role: string }[],
    origin: string,
  ): Promise<{ invitation: InvitationEntity; email: InvitationEmail }[]> {
    const { tenantId } = caller;
    const now = this.clock.now();
    const tenantName = tenantDisplayName(await this.invitations.findTenantName(tenantId));
    return rows.map(({ email, role }) => {
      const invitation: InvitationEntity = {
        id: this.ids.uuid(),
        tenantId,
        email: email.toLowerCase(),
        role,
        status: 'pending',
        expiresAt: new Date(now.getTime() + INVITATION_VALIDITY_MS),
        invitedBy: caller.id,
        createdAt: now,
      };
      const message: InvitationEmail = {
        to: invitation.email, // the stored address: the one the duplicate check read is the one that gets the e-mail
        tenantName,
        inviterEmail: caller.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt,
        link: invitationLink(this.config.publicBaseUrl ?? origin, invitation.id),
      };
      return { invitation, email: message };
    });
  }
}
