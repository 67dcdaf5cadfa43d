import { HttpException, HttpStatus, Injectable, Logger } from '@nestjs/common';
import { messageOf } from '../common/api-error';
import { InvitationsService } from '../invitations/invitations.service';
import { tenantDisplayName } from '../invitations/invitation';
import { InvitationsStore } from '../invitations/invitations.store';
import { InvitationPage, InvitationPageView } from './invitation-page.view';

/** The refusals of spec 4.1 and 4.2 that the page explains, by error code. */
const REFUSALS = new Map<unknown, InvitationPageView>([
  ['ALREADY_USED', { kind: 'already-used' }],
  ['EXPIRED', { kind: 'expired' }],
  ['INVALID', { kind: 'invalid' }],
]);

/**
 * The page that invitation links open. It reads and accepts through InvitationsService, the
 * service behind spec 4.1 and 4.2, so that the page and the API always agree, side effects included.
 */
@Injectable()
export class InvitationPageService {
  private readonly logger = new Logger(InvitationPageService.name);

  constructor(
    private readonly invitations: InvitationsService,
    private readonly store: InvitationsStore,
  ) {}

  /** Spec 4.1: a pending invitation past expiresAt is stored expired. Opening the page never accepts. */
  async show(token: string): Promise<InvitationPage> {
    try {
      const invitation = await this.invitations.validate(token);
      return {
        status: HttpStatus.OK,
        view: {
          kind: 'invitation',
          tenantName: invitation.tenantName,
          email: invitation.email,
          role: invitation.role,
          expiresAt: new Date(invitation.expiresAt),
        },
      };
    } catch (failure) {
      return this.refusal(failure);
    }
  }

  /** Spec 4.2: the same state as POST /api/invitations/{token}. */
  async accept(token: string): Promise<InvitationPage> {
    try {
      const accepted = await this.invitations.accept(token);
      return {
        status: HttpStatus.OK,
        view: { kind: 'accepted', tenantName: await this.tenantName(accepted.tenantId), role: accepted.role },
      };
    } catch (failure) {
      return this.refusal(failure);
    }
  }

  /** The invitation is accepted by now: a failure to read its tenant's name must not hide that. */
  private async tenantName(tenantId: string): Promise<string> {
    try {
      return tenantDisplayName(await this.store.findTenantName(tenantId));
    } catch (failure) {
      this.logger.warn(`Reading the name of an accepted invitation's tenant failed: ${messageOf(failure)}`);
      return tenantDisplayName(null);
    }
  }

  /**
   * A refusal the spec names (a 4xx whose body carries its code) gets its own message; any other
   * failure, a spec 500 or an error that nothing turned into one, is "Something went wrong".
   */
  private refusal(failure: unknown): InvitationPage {
    if (failure instanceof HttpException && failure.getStatus() < HttpStatus.INTERNAL_SERVER_ERROR) {
      const view = REFUSALS.get((failure.getResponse() as { error?: unknown }).error);
      if (view) return { status: failure.getStatus(), view };
    }
    const cause = failure instanceof HttpException && failure.cause ? failure.cause : failure;
    this.logger.error(
      `The invitation page failed: ${messageOf(cause)}`,
      cause instanceof Error ? cause.stack : undefined,
    );
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, view: { kind: 'failed' } };
  }
}
