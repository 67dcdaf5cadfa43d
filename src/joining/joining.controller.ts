import { Controller, HttpCode, HttpStatus, Param, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { Caller, CurrentCaller } from '../auth/caller';
import { SessionGuard } from '../auth/session.guard';
import { FailureResponse } from '../common/failure-response';
import { INVITATION_ERRORS } from '../invitations/dto/invitation-error';
import { ApiJoinInvitation } from './joining.docs';
import { JoinErrorBody, joinErrorBody } from './join-errors';
import { JoiningService } from './joining.service';

@Controller('api/invitations')
export class JoiningController {
  constructor(private readonly joining: JoiningService) {}

  @Post(':token/join')
  @HttpCode(HttpStatus.OK)
  @ApiJoinInvitation()
  @FailureResponse(joinErrorBody(INVITATION_ERRORS.internal), { type: JoinErrorBody })
  @UseGuards(SessionGuard)
  async joinInvitation(
    @CurrentCaller() caller: Caller | undefined,
    @Param('token') token: string,
    @Res({ passthrough: true }) response: Response,
  ) {
    const joined = await this.joining.join(caller, token);
    if ('pending' in joined) response.status(HttpStatus.ACCEPTED);
    return joined;
  }
}
