import { HttpStatus } from '@nestjs/common';
import { Refusal, refusalBody, refusalSchema } from '../common/refusal';
import { DOMAIN_ERRORS, DomainErrorCode } from './domains.messages';

export const domainErrorBody = (error: DomainErrorCode) => refusalBody(error);

export const domainRefusal = (status: HttpStatus, error: DomainErrorCode) => new Refusal(status, error);

/** The body of domainRefusal, for the API document. */
export const DomainErrorBody = refusalSchema('DomainErrorBody', Object.values(DOMAIN_ERRORS), {
  startUrl: { type: 'string', description: 'SSO_REQUIRED: where the person signs in by single sign-on instead' },
});
