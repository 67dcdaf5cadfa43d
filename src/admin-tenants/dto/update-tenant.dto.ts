import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, MaxLength, NotContains, ValidateIf } from 'class-validator';
import { TENANT_TYPES } from '../../database/entities/tenant.entity';
import { TENANT_ERRORS } from '../admin-tenants.messages';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const given = (property: 'name' | 'type') => ValidateIf((dto: UpdateTenantDto) => dto[property] !== undefined);

/**
 * PATCH /api/admin/tenants/{id}: each field that is given, under the rules of spec 4.4 rules 2–4
 * (CreateTenantDto); null is not "absent" but an empty value. Rules run bottom-up (see validateBody).
 */
export class UpdateTenantDto {
  @ApiPropertyOptional({ description: 'Trimmed; not empty', minLength: 1, maxLength: 255, example: 'Acme Ltd' })
  @MaxLength(255, { message: 'Name must be at most 255 characters' })
  @NotContains('\u0000', { message: 'Name must not contain NUL characters' })
  @IsString({ message: 'Name must be a string' })
  @IsNotEmpty({ message: TENANT_ERRORS.nameRequired })
  @Transform(trimmed)
  @given('name')
  name?: string;

  @ApiPropertyOptional({ enum: TENANT_TYPES })
  @IsIn(TENANT_TYPES, { message: TENANT_ERRORS.invalidType })
  @IsNotEmpty({ message: TENANT_ERRORS.typeRequired })
  @given('type')
  type?: string;
}
