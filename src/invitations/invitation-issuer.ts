import { Injectable } from '@nestjs/common';
import { auditActor } from '../audit/audit-event';
import { OrgCaller } from '../auth/caller';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { InvitationEntity } from '../database/entities';
import { invitationLink } from '../mail/invitation-message';
import { InvitationOutboxWorker } from '../mail/outbox/invitation-outbox.worker';
import { Metrics } from '../metrics/metrics';
import { INVITATION_VALIDITY_MS, tenantDisplayName } from './invitation';
import { InvitationsStore } from './invitations.store';

/**
 * Spec 4.9 rules 9–10, shared by the invite and the resend: a new pending invitation
 * from the caller, valid 7 days, stored with its e-mail in one transaction; the outbox worker
 * sends the e-mail after the response, and retries a failed send.
 */
@Injectable()
export class InvitationIssuer {
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
   * With `replacing`, that invitation is revoked in the same transaction; null, and nothing
   * stored, when it was no longer pending or expired.
   */
  async issue(
    caller: OrgCaller,
    email: string,
    role: string,
    origin: string,
    replacing?: string,
  ): Promise<InvitationEntity | null> {
    const { tenantId } = caller;
    const now = this.clock.now();
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
    const stored = await this.invitations.create(
      invitation,
      {
        to: invitation.email, // the stored address: the one the duplicate check read is the one that gets the e-mail
        tenantName: tenantDisplayName(await this.invitations.findTenantName(tenantId)),
        inviterEmail: caller.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt,
        link: invitationLink(this.config.publicBaseUrl ?? origin, invitation.id),
      },
      auditActor(caller),
      replacing,
    );
    if (!stored) return null;
    this.metrics.invitationCreated();
    this.outboxWorker.kick();
    return invitation;
  }
}
