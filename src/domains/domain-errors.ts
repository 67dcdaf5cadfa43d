import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { DOMAIN_ERRORS, DomainErrorCode } from './domains.messages';

export const domainErrorBody = (error: DomainErrorCode) => ({ success: false as const, error });

export const domainRefusal = (status: HttpStatus, error: DomainErrorCode) =>
  new HttpException(domainErrorBody(error), status);

/** The body of domainRefusal, for the API document. */
export class DomainErrorBody {
  @ApiProperty({ enum: [false] })
  success: false;

  @ApiProperty({ enum: Object.values(DOMAIN_ERRORS) })
  error: DomainErrorCode;
}
