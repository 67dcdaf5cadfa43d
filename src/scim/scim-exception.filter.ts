import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { SCIM_CONTENT_TYPE, toScimError } from './scim-errors';

/**
 * The SCIM routes' errors in SCIM's form (RFC 7644 section 3.12), as `application/scim+json`,
 * whatever threw them: guards, pipes or handlers. The global filter shapes every other route.
 */
@Catch()
export class ScimExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ScimExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    const { status, body } = toScimError(exception);
    if (status >= HttpStatus.INTERNAL_SERVER_ERROR)
      this.logger.error('SCIM request failed', exception instanceof Error ? exception.stack : String(exception));
    writeScimError(response, status, body);
  }
}

export function writeScimError(response: Response, status: number, body: object): void {
  response.status(status).type(SCIM_CONTENT_TYPE).send(JSON.stringify(body));
}
