/** The body of POST /api/org/setup-links (docs/setup-links.md): each rule's message is the refusal's `reason`. */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidateIf } from 'class-validator';
import { ReasonedBodyPipe } from '../../common/coded-body';
import { SETUP_INTENTS, SetupIntent } from '../../database/entities/setup-link.entity';
import { SETUP_ERRORS, SETUP_REASONS } from '../setup-links.messages';

export const DEFAULT_EXPIRES_IN_HOURS = 72;
export const MAX_EXPIRES_IN_HOURS = 720;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

const rule = (name: string, validate: (value: unknown) => boolean, message: string) =>
  ValidateBy({ name, validator: { validate } }, { message });

const isIntentList = (value: unknown) =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((intent) => SETUP_INTENTS.includes(intent as SetupIntent)) &&
  new Set(value).size === value.length;

export class CreateSetupLinkBody {
  @ApiProperty({ type: [String], enum: SETUP_INTENTS, example: ['domain', 'sso', 'scim'] })
  @rule('intents', isIntentList, SETUP_REASONS.intents)
  intents: SetupIntent[];

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_EXPIRES_IN_HOURS, default: DEFAULT_EXPIRES_IN_HOURS })
  @ValidateIf((_, value) => value !== undefined)
  @rule(
    'expiresInHours',
    (value) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_EXPIRES_IN_HOURS,
    SETUP_REASONS.expiresInHours,
  )
  expiresInHours?: number;

  @ApiPropertyOptional({ description: 'Also e-mail the link to this address', example: 'it@acme.com' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @ValidateIf((_, value) => value !== undefined)
  @rule('email', (value) => typeof value === 'string' && value.length <= 320 && EMAIL.test(value), SETUP_REASONS.email)
  email?: string;
}

/** The body, after the guards: its first failed rule as 400 SETUP_LINK_INVALID. */
export const CreateSetupLinkPipe = ReasonedBodyPipe(
  CreateSetupLinkBody,
  SETUP_ERRORS.invalid,
  'the body must be a JSON object',
);
