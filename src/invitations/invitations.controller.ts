import { Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { InvitationsService } from './invitations.service';

/**
 * Spec 4.1 and 4.2: public, no session. path-to-regexp v8 has no optional parameters, so the
 * empty token (`/api/invitations` and `/api/invitations/`) has handlers of its own: rule 1.
 */
@Controller('api/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  validateInvitationWithoutToken() {
    return this.invitations.validate('');
  }

  @Get(':token')
  validateInvitation(@Param('token') token: string) {
    return this.invitations.validate(token);
  }

  @Post()
  @HttpCode(HttpStatus.OK)
  acceptInvitationWithoutToken() {
    return this.invitations.accept('');
  }

  @Post(':token')
  @HttpCode(HttpStatus.OK)
  acceptInvitation(@Param('token') token: string) {
    return this.invitations.accept(token);
  }
}
