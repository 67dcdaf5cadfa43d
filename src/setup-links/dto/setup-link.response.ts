/** The answers of the setup-link routes (docs/setup-links.md), for the API document. */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SETUP_INTENTS } from '../../database/entities/setup-link.entity';
import { DomainResponse } from '../../domains/dto/domain.response';
import { ListedScimToken } from '../../scim/scim-tokens.docs';
import { SsoConnection } from '../../sso/dto/sso.response';
import { SETUP_LINK_STATUSES } from '../setup-link';

export class SetupLinkResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: [String], enum: SETUP_INTENTS }) intents: string[];
  @ApiProperty({ enum: SETUP_LINK_STATUSES }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ description: 'The id of the owner who made it' }) createdBy: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastOpenedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Where the link was e-mailed' }) email: string | null;
}

export class CreatedSetupLinkResponse extends SetupLinkResponse {
  @ApiProperty({ description: 'Shown once: `{PUBLIC_BASE_URL}/setup/{token}`; only the token’s hash is kept' })
  url: string;
}

export class CreatedSetupLinkAnswer {
  @ApiProperty({ enum: [true] }) success: true;
  @ApiProperty({ type: CreatedSetupLinkResponse }) link: CreatedSetupLinkResponse;
}

export class SetupLinkListResponse {
  @ApiProperty({ type: [SetupLinkResponse], description: 'Newest first, at most 100' }) links: SetupLinkResponse[];
}

export class SetupOrganisation {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class SetupCompletedAnswer {
  @ApiProperty({ enum: [true] }) success: true;
  @ApiProperty({ enum: ['completed'] }) status: 'completed';
}

export class SetupLinkTokenResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() token: string;
  @ApiProperty() url: string;
}

export class SetupDomainStep {
  @ApiProperty({ type: [DomainResponse] }) domains: DomainResponse[];
}

export class SetupSsoStep {
  @ApiProperty({ type: [SsoConnection] }) connections: SsoConnection[];
  @ApiProperty({ description: 'Whether the organisation requires single sign-on (only its owners change it)' })
  enforced: boolean;
}

export class SetupScimStep {
  @ApiProperty({ type: [ListedScimToken] }) tokens: ListedScimToken[];
}

export class SetupSteps {
  @ApiPropertyOptional({ type: SetupDomainStep, description: 'When the link grants "domain"' })
  domain?: SetupDomainStep;
  @ApiPropertyOptional({ type: SetupSsoStep, description: 'When the link grants "sso"' }) sso?: SetupSsoStep;
  @ApiPropertyOptional({ type: SetupScimStep, description: 'When the link grants "scim"' }) scim?: SetupScimStep;
}

export class SetupOverview {
  @ApiProperty({ type: SetupOrganisation }) organisation: SetupOrganisation;
  @ApiProperty({ type: [String], enum: SETUP_INTENTS }) intents: string[];
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ type: SetupSteps }) steps: SetupSteps;
}
