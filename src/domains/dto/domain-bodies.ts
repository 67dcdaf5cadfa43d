import { PipeTransform, Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsIn, IsString, Matches, ValidateIf } from 'class-validator';
import { CodedBodyPipe, validateCodedBody } from '../../common/coded-body';
import { SOMETHING_VISIBLE } from '../../common/validate-body';
import { JOIN_MODES, JoinMode } from '../../database/entities/org-domain.entity';
import { normaliseDomain } from '../domain-name';
import { DOMAIN_ERRORS, DomainErrorCode } from '../domains.messages';

/*
 * The bodies of the domain routes (docs/domains.md). Rules on a property run bottom-up
 * (validateBody); each message is the refusal's code (DomainBodyPipe).
 */

/** POST /api/org/domains. `domain` arrives in its one stored form (normaliseDomain), or is refused. */
export class AddDomainBody {
  @ApiProperty({ example: 'acme.com' })
  @IsString({ message: DOMAIN_ERRORS.invalid })
  @Transform(({ value }) => normaliseDomain(value))
  domain: string;
}

/** PATCH /api/org/domains/{name}: the join mode, the default roles, or both; a join mode when nothing else. */
export class UpdateDomainBody {
  @ApiPropertyOptional({ enum: JOIN_MODES })
  @IsIn(JOIN_MODES, { message: DOMAIN_ERRORS.invalidJoinMode })
  @ValidateIf((body: UpdateDomainBody) => body.joinMode !== undefined || body.defaultRoles === undefined)
  joinMode?: JoinMode;

  @ApiPropertyOptional({ type: [String], description: 'Keys of custom roles' })
  @IsString({ each: true, message: DOMAIN_ERRORS.invalidDefaultRoles })
  @IsArray({ message: DOMAIN_ERRORS.invalidDefaultRoles })
  @ValidateIf((body: UpdateDomainBody) => body.defaultRoles !== undefined)
  defaultRoles?: string[];
}

/** POST /api/admin/domains/{name}/release. */
export class ReleaseDomainBody {
  @ApiProperty()
  @Matches(SOMETHING_VISIBLE, { message: DOMAIN_ERRORS.tenantRequired })
  @IsString({ message: DOMAIN_ERRORS.tenantRequired })
  tenantId: string;

  @ApiProperty({ description: 'Why: kept in the audit trail' })
  @Matches(SOMETHING_VISIBLE, { message: DOMAIN_ERRORS.reasonRequired })
  @IsString({ message: DOMAIN_ERRORS.reasonRequired })
  reason: string;
}

export class JoinRequestsQuery {
  @ApiPropertyOptional({ enum: ['pending', 'approved', 'rejected'], default: 'pending' })
  status?: string;
}

export class AdminDomainsQuery {
  @ApiProperty()
  name: string;
}

const CODES = Object.values(DOMAIN_ERRORS);

/** A domain body's first failed rule as `400 {success:false, error:CODE}`; a body that is no JSON object as `invalidBody`. */
export function DomainBodyPipe<T extends object>(dto: Type<T>, invalidBody: DomainErrorCode): Type<PipeTransform> {
  return CodedBodyPipe(dto, CODES, invalidBody);
}

/** DomainBodyPipe's check, for a route that looks its resource up first (PATCH: an unknown name is 404 whatever the body). */
export function validateDomainBody<T extends object>(dto: Type<T>, body: unknown, invalidBody: DomainErrorCode): T {
  return validateCodedBody(dto, body, CODES, invalidBody);
}
