import { Body, Controller, HttpCode, HttpStatus, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentOrgCaller, OrgCaller } from '../auth/caller';
import { OrgAdminGuard, RequirePermission } from '../auth/org-admin.guard';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { RequestOrigin } from '../common/request-origin';
import { Idempotent } from '../idempotency/idempotent';
import { IdempotencyGuard } from '../idempotency/idempotency.guard';
import { BulkInvitationsBodyGuard } from './bulk-invitations-body';
import { ApiBulkInvitations } from './bulk-invitations.docs';
import { BULK_INVITATION_ERRORS } from './bulk-invitations.messages';
import { BulkInvitationsService } from './bulk-invitations.service';
import { BulkInvitationsBody } from './dto/bulk-invitations.dto';

/** Where csvBodyParser is mounted (app.setup.ts): the one route that reads a `text/csv` body. */
export const BULK_INVITATIONS_PATH = '/api/org/invitations/bulk';

@Controller('api/org/invitations')
export class BulkInvitationsController {
  constructor(private readonly service: BulkInvitationsService) {}

  /**
   * The session, then owner or admin by claims and by the stored record (as the console), then the
   * body, then an Idempotency-Key. The invitation limit is spent in the service, one unit per row created.
   */
  @Post('bulk')
  @ApiBulkInvitations()
  @FailureResponse({ error: BULK_INVITATION_ERRORS.sendFailed })
  @Idempotent()
  @HttpCode(HttpStatus.OK)
  @UseGuards(SessionGuard, OrgAdminGuard, BulkInvitationsBodyGuard, IdempotencyGuard)
  @RequirePermission('invitations:create', {
    notOrgUser: BULK_INVITATION_ERRORS.notOrgUser,
    notOwnerOrAdmin: BULK_INVITATION_ERRORS.notOwnerOrAdmin,
  })
  inviteMany(
    @CurrentOrgCaller() caller: OrgCaller,
    @Body() body: BulkInvitationsBody,
    @RequestOrigin() origin: string,
    @Res({ passthrough: true }) response: Response,
  ) {
    return this.service.invite(caller, body, origin, response);
  }
}
