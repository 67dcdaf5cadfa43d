import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { InvitationEntity } from '../database/entities';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { Metrics } from '../metrics/metrics';
import { acceptanceError, INVITATION_ERRORS, validationError } from './dto/invitation-error';
import {
  AcceptedInvitationResponse,
  toAcceptedInvitationResponse,
  toValidInvitationResponse,
  ValidInvitationResponse,
} from './dto/invitation.response';
import { InvitationsStore } from './invitations.store';

/**
 * Spec 4.1 and 4.2: validating and accepting an invitation by its token, the invitation id.
 * Rule 6 of both, the unexpected failure, is the routes' @FailureResponse.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly store: InvitationsStore,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly tenants: TenantStatusReader,
  ) {}

  /** Spec 4.1 rules 1–5. */
  async validate(token: string): Promise<ValidInvitationResponse> {
    // Rule 1.
    if (isEmpty(token)) throw validationError(HttpStatus.BAD_REQUEST, INVITATION_ERRORS.invalid);
    const now = this.clock.now();
    const invitation = await this.load(token);
    // Rule 2.
    if (!invitation) throw validationError(HttpStatus.NOT_FOUND, INVITATION_ERRORS.invalid);
    // Rule 3 comes before the expiry check: an accepted invitation stays accepted.
    if (invitation.status === 'accepted') throw validationError(HttpStatus.BAD_REQUEST, INVITATION_ERRORS.alreadyUsed);
    // Rule 4 judges expiry by expiresAt, whatever the stored status says.
    if (isExpired(invitation, now)) {
      if (await this.store.markExpired(invitation)) this.metrics.invitationExpired();
      throw validationError(HttpStatus.BAD_REQUEST, INVITATION_ERRORS.expired);
    }
    // Rule 5.
    return toValidInvitationResponse(invitation, await this.store.findTenantName(invitation.tenantId));
  }

  /**
   * Spec 4.2 rules 1–5. No body is read and the caller is not checked. An invitation of a suspended
   * tenant, which rules 2–4 would let through, is refused 403 ORGANISATION_SUSPENDED; one of a
   * tenant being deleted is as good as revoked (rule 2).
   */
  async accept(token: string): Promise<AcceptedInvitationResponse> {
    // Rule 1.
    if (isEmpty(token)) throw acceptanceError(HttpStatus.BAD_REQUEST, INVITATION_ERRORS.invalid);
    const now = this.clock.now();
    const invitation = await this.load(token);
    refuseUnacceptable(invitation, now);
    // Rule 5. The conditional update decides between parallel requests, and holds the tenant's
    // status too, so that an open tenant costs no extra read; a loser reads the invitation again
    // and gets the refusal that applies now (rule 3 after a parallel accept, or the suspension).
    if (!(await this.store.accept(invitation, now))) {
      const current = await this.load(invitation.id);
      refuseUnacceptable(current, now);
      await this.refuseIfTenantClosed(current.tenantId);
      throw new Error('The invitation was neither accepted nor refused');
    }
    this.metrics.invitationAccepted();
    return toAcceptedInvitationResponse(invitation);
  }

  /** The accept's refusals in the states that the spec does not know (docs/tenant-lifecycle.md). */
  private async refuseIfTenantClosed(tenantId: string): Promise<void> {
    const status = await this.tenants.statusOf(tenantId);
    if (status === 'suspended') throw acceptanceError(HttpStatus.FORBIDDEN, INVITATION_ERRORS.suspended);
    if (status === 'deleted') throw acceptanceError(HttpStatus.NOT_FOUND, INVITATION_ERRORS.invalid);
  }

  /**
   * Rule 2 of both endpoints: an invitation that "cannot be loaded" is answered as a missing one,
   * and so is a revoked one (issue 12): its token is dead, as an unknown one is.
   */
  private async load(token: string): Promise<InvitationEntity | null> {
    try {
      const invitation = await this.store.findById(token);
      return invitation?.status === 'revoked' ? null : invitation;
    } catch (failure) {
      // Logged without the token: it is the invitation's secret.
      logger.error(`Loading an invitation failed: ${messageOf(failure)}`);
      return null;
    }
  }
}

const logger = new Logger('InvitationsService');

/** A token of nothing but white space is as empty as none at all. */
const isEmpty = (token: string): boolean => token.trim() === '';

const isExpired = (invitation: InvitationEntity, now: Date): boolean =>
  invitation.expiresAt.getTime() < now.getTime();

/** Spec 4.2 rules 2–4. Unlike GET, an expired invitation is left unchanged (section 3). */
function refuseUnacceptable(invitation: InvitationEntity | null, now: Date): asserts invitation is InvitationEntity {
  // Rule 2.
  if (!invitation) throw acceptanceError(HttpStatus.NOT_FOUND, INVITATION_ERRORS.invalid);
  // Rule 3 comes before the expiry check.
  if (invitation.status === 'accepted') throw acceptanceError(HttpStatus.BAD_REQUEST, INVITATION_ERRORS.alreadyUsed);
  // Rule 4 judges expiry by expiresAt, whatever the stored status says.
  if (isExpired(invitation, now)) throw acceptanceError(HttpStatus.BAD_REQUEST, INVITATION_ERRORS.expired);
}
