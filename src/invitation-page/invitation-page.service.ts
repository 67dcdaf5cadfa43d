import { HttpException, HttpStatus, Injectable, Logger } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { messageOf } from '../common/api-error';
import { sameEmail } from '../common/email-comparison';
import { TenantStatusReader } from '../database/tenant-status-reader';
import { InvitationsService } from '../invitations/invitations.service';
import { tenantDisplayName } from '../invitations/invitation';
import { InvitationsStore } from '../invitations/invitations.store';
import { JOIN_ERRORS } from '../joining/join-errors';
import { JoiningService } from '../joining/joining.service';
import { PageVisitor } from './page-visitor';
import { InvitationPage, InvitationPageView } from './invitation-page.view';

/** The refusals of spec 4.1 and 4.2, and of a join, that the page explains, by error code. */
const REFUSALS = new Map<unknown, InvitationPageView>([
  ['ALREADY_USED', { kind: 'already-used' }],
  ['EXPIRED', { kind: 'expired' }],
  ['INVALID', { kind: 'invalid' }],
  [JOIN_ERRORS.emailNotVerified, { kind: 'not-verified' }],
  [JOIN_ERRORS.memberOfAnotherOrganisation, { kind: 'member-elsewhere' }],
  [JOIN_ERRORS.emailInUse, { kind: 'email-in-use' }],
  ['ORGANISATION_SUSPENDED', { kind: 'suspended' }],
]);

/** The page for a visitor signed in with another address than the invited one. */
const otherAddress = (caller: Caller, { signInUrl }: PageVisitor): InvitationPageView => ({
  kind: 'other-address',
  signedInAs: caller.email,
  ...(signInUrl && { signInUrl }),
});

/**
 * The page that invitation links open. It reads, accepts and joins through InvitationsService and
 * JoiningService, the services behind the API's routes, so that the page and the API always agree,
 * side effects included. A visitor signed in with the invited address joins; one signed in with
 * another is told so; one without a session is sent to sign in when SIGN_IN_URL is set, and
 * otherwise gets the spec's accept, which makes nobody a member.
 */
@Injectable()
export class InvitationPageService {
  private readonly logger = new Logger(InvitationPageService.name);

  constructor(
    private readonly invitations: InvitationsService,
    private readonly store: InvitationsStore,
    private readonly joining: JoiningService,
    private readonly tenants: TenantStatusReader,
  ) {}

  /**
   * Spec 4.1: a pending invitation past expiresAt is stored expired. Opening the page never accepts.
   * A valid invitation of a suspended tenant is shown as such, without the button (the accept and
   * the join would be refused): the status stays the API's, 200.
   */
  async show(token: string, visitor: PageVisitor = {}): Promise<InvitationPage> {
    try {
      const invitation = await this.invitations.validate(token);
      if ((await this.tenants.statusOf(invitation.tenantId)) === 'suspended')
        return { status: HttpStatus.OK, view: { kind: 'suspended' } };
      const { caller, signInUrl } = visitor;
      if (caller && !(caller.email && sameEmail(caller.email, invitation.email))) {
        return { status: HttpStatus.OK, view: otherAddress(caller, visitor) };
      }
      const action = caller ? 'join' : signInUrl && { signInUrl };
      return {
        status: HttpStatus.OK,
        view: {
          kind: 'invitation',
          tenantName: invitation.tenantName,
          email: invitation.email,
          role: invitation.role,
          expiresAt: new Date(invitation.expiresAt),
          ...(action && { action }),
        },
      };
    } catch (failure) {
      return this.refusal(failure);
    }
  }

  /**
   * The button: a signed-in visitor joins (the state of POST /api/invitations/{token}/join); one
   * without a session is sent to sign in when SIGN_IN_URL is set; otherwise spec 4.2's accept.
   */
  async accept(token: string, visitor: PageVisitor = {}): Promise<InvitationPage> {
    if (visitor.caller) return this.join(token, visitor.caller, visitor);
    if (visitor.signInUrl) {
      const page = await this.show(token, visitor);
      return page.view.kind === 'invitation' ? { ...page, status: HttpStatus.UNAUTHORIZED } : page;
    }
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

  private async join(token: string, caller: Caller, visitor: PageVisitor): Promise<InvitationPage> {
    try {
      const joined = await this.joining.join(caller, token);
      const pending = 'pending' in joined;
      return {
        status: pending ? HttpStatus.ACCEPTED : HttpStatus.OK,
        view: { kind: 'joined', tenantName: await this.tenantName(joined.tenantId), role: joined.role, pending },
      };
    } catch (failure) {
      if (
        failure instanceof HttpException &&
        (failure.getResponse() as { error?: unknown }).error === JOIN_ERRORS.emailMismatch
      ) {
        return { status: failure.getStatus(), view: otherAddress(caller, visitor) };
      }
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
   * A refusal the spec or the join names (a 4xx whose body carries its code) gets its own message;
   * any other failure, a spec 500 or an error that nothing turned into one, is "Something went wrong".
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
