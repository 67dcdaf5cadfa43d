import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, MaxLength, NotContains } from 'class-validator';
import { TENANT_TYPES } from '../../database/entities/tenant.entity';
import { TENANT_ERRORS } from '../admin-tenants.messages';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Spec 4.4 rules 2–4. Rules on a property run bottom-up (see validateBody). */
export class CreateTenantDto {
  @ApiProperty({ description: 'Trimmed; required', minLength: 1, maxLength: 255, example: 'Acme' })
  @MaxLength(255, { message: 'Name must be at most 255 characters' })
  @NotContains('\u0000', { message: 'Name must not contain NUL characters' })
  @IsString({ message: 'Name must be a string' })
  @IsNotEmpty({ message: TENANT_ERRORS.nameRequired })
  @Transform(trimmed)
  name: string;

  @ApiProperty({ enum: TENANT_TYPES })
  @IsIn(TENANT_TYPES, { message: TENANT_ERRORS.invalidType })
  @IsNotEmpty({ message: TENANT_ERRORS.typeRequired })
  type: string;
}
