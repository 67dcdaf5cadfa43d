import { CanActivate, ExecutionContext, Injectable, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';

/**
 * INVITATION_PAGE=false: the page's paths answer as paths without a route do (Nest's own
 * 404 `Cannot GET <url>`), as they did before the page existed.
 */
@Injectable()
export class InvitationPageEnabledGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.config.invitationPage) return true;
    const request = context.switchToHttp().getRequest<Request>();
    throw new NotFoundException(`Cannot ${request.method} ${request.originalUrl}`);
  }
}
