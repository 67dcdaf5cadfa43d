import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, MaxLength, NotContains } from 'class-validator';
import { TENANT_TYPES } from '../../database/entities/tenant.entity';

export const INVALID_TENANT_TYPE = `Invalid tenant type. Must be one of: ${TENANT_TYPES.join(', ')}`;

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Spec 4.4 rules 2–4. Rules on a property run bottom-up (see validateBody). */
export class CreateTenantDto {
  @ApiProperty({ description: 'Trimmed; required', maxLength: 255, example: 'Acme' })
  @MaxLength(255, { message: 'Name must be at most 255 characters' })
  @NotContains('\u0000', { message: 'Name must not contain NUL characters' })
  @IsString({ message: 'Name must be a string' })
  @IsNotEmpty({ message: 'Name is required' })
  @Transform(trimmed)
  name: string;

  @ApiProperty({ enum: TENANT_TYPES })
  @IsIn(TENANT_TYPES, { message: INVALID_TENANT_TYPE })
  @IsNotEmpty({ message: 'Type is required' })
  type: string;
}
