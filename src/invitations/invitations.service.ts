import { HttpException, HttpStatus, Injectable, Logger } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { Clock } from '../common/clock';
import { InvitationEntity } from '../database/entities';
import { isConnectionFailure } from '../database/prepared-statements';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { Metrics } from '../metrics/metrics';
import { acceptanceError, INVITATION_ERRORS, InvitationErrorCode, validationError } from './dto/invitation-error';
import {
  AcceptedInvitationResponse,
  toAcceptedInvitationResponse,
  toValidInvitationResponse,
  ValidInvitationResponse,
} from './dto/invitation.response';
import { acceptanceRefusal, AcceptanceRefusal } from './invitation';
import { AcceptAttempt, InvitationsStore } from './invitations.store';

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
    // Rules 2–4. Refused for its expiry, a pending invitation is also stored expired (section 3).
    if (invitation && acceptanceRefusal(invitation, now) === 'expired' && (await this.store.markExpired(invitation))) {
      this.metrics.invitationExpired();
    }
    refuseUnacceptable(invitation, now, validationError);
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
    // Rule 5 tried first where the store can, with the row read in the same round trip: the
    // conditional update lets through only what rules 2–4 would, and the row as it is then tells
    // the refusal. Where it cannot, or the attempt failed, the rules run in their order.
    const attempt = await this.acceptAtOnce(token, now);
    if (attempt?.accepted) return this.accepted(attempt.invitation);
    if (attempt) return this.refuse(attempt.invitation, now);
    const invitation = await this.load(token);
    refuseUnacceptable(invitation, now, acceptanceError);
    // Rule 5. The conditional update decides between parallel requests, and holds the tenant's
    // status too, so that an open tenant costs no extra read; a loser reads the invitation again
    // and gets the refusal that applies now (rule 3 after a parallel accept, or the suspension).
    if (await this.store.accept(invitation, now)) return this.accepted(invitation);
    return this.refuse(await this.load(invitation.id), now);
  }

  private accepted(invitation: InvitationEntity | null): AcceptedInvitationResponse {
    if (!invitation) throw new Error('An accepted invitation could not be read');
    this.metrics.invitationAccepted();
    return toAcceptedInvitationResponse(invitation);
  }

  /** Rules 2–4 on the invitation as it is after a conditional update that did not accept it, then the tenant's state. */
  private async refuse(current: InvitationEntity | null, now: Date): Promise<never> {
    refuseUnacceptable(current, now, acceptanceError);
    await this.refuseIfTenantClosed(current.tenantId);
    throw new Error('The invitation was neither accepted nor refused');
  }

  /**
   * The store's accept in one round trip; undefined where it has none. When a statement of it
   * failed, undefined too: the rules in their order then tell a failed read (rule 2) from a failed
   * update (rule 6). When the database could not be reached, the invitation cannot be loaded
   * (rule 2), at once: step by step would only wait for the database a second time.
   */
  private async acceptAtOnce(token: string, now: Date): Promise<AcceptAttempt | undefined> {
    try {
      return await this.store.acceptAtOnce(token, now);
    } catch (failure) {
      if (isConnectionFailure(failure)) {
        loadFailed(failure);
        return { accepted: false, invitation: null };
      }
      logger.warn(`Accepting an invitation in one round trip failed, trying step by step: ${messageOf(failure)}`);
      return undefined;
    }
  }

  /** The accept's refusals in the states that the spec does not know (docs/tenant-lifecycle.md). */
  private async refuseIfTenantClosed(tenantId: string): Promise<void> {
    const status = await this.tenants.statusOf(tenantId);
    if (status === 'suspended') throw acceptanceError(HttpStatus.FORBIDDEN, INVITATION_ERRORS.suspended);
    if (status === 'deleted') throw acceptanceError(HttpStatus.NOT_FOUND, INVITATION_ERRORS.invalid);
  }

  /** Rule 2 of both endpoints: an invitation that "cannot be loaded" is answered as a missing one. */
  private async load(token: string): Promise<InvitationEntity | null> {
    try {
      return await this.store.findById(token);
    } catch (failure) {
      loadFailed(failure);
      return null;
    }
  }
}

const logger = new Logger('InvitationsService');

/** Logged without the token: it is the invitation's secret. */
const loadFailed = (failure: unknown) => logger.error(`Loading an invitation failed: ${messageOf(failure)}`);

/** A token of nothing but white space is as empty as none at all. */
const isEmpty = (token: string): boolean => token.trim() === '';

/** The status and error code of each refusal of spec 4.1 and 4.2 rules 2–4. */
const REFUSALS: Record<AcceptanceRefusal, [HttpStatus, InvitationErrorCode]> = {
  unknown: [HttpStatus.NOT_FOUND, INVITATION_ERRORS.invalid],
  alreadyAccepted: [HttpStatus.BAD_REQUEST, INVITATION_ERRORS.alreadyUsed],
  expired: [HttpStatus.BAD_REQUEST, INVITATION_ERRORS.expired],
};

/** Spec 4.1 and 4.2 rules 2–4, refused with `refusal`: GET's body or POST's. */
function refuseUnacceptable(
  invitation: InvitationEntity | null,
  now: Date,
  refusal: (status: HttpStatus, error: InvitationErrorCode) => HttpException,
): asserts invitation is InvitationEntity {
  const refused = acceptanceRefusal(invitation, now);
  if (refused) throw refusal(...REFUSALS[refused]);
}
