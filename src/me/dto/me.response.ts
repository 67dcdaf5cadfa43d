import { ApiProperty } from '@nestjs/swagger';

export class MeUserResponse {
  @ApiProperty()
  id: string;
  @ApiProperty({ type: String, nullable: true })
  email: string | null;
  @ApiProperty()
  emailVerified: boolean;
  @ApiProperty({ type: String, nullable: true })
  platformRole: string | null;
}

export class MeOrganisationResponse {
  @ApiProperty()
  id: string;
  @ApiProperty({ description: 'The tenant name, or "Organisation" when it has none' })
  name: string;
  @ApiProperty()
  status: string;
  @ApiProperty({ type: String, nullable: true })
  role: string | null;
}

export class MeResponse {
  @ApiProperty()
  user: MeUserResponse;
  @ApiProperty({ type: MeOrganisationResponse, nullable: true })
  organisation: MeOrganisationResponse | null;
}

export class MyInvitationResponse {
  @ApiProperty({ description: 'Joins with POST /api/invitations/{token}/join' })
  token: string;
  @ApiProperty()
  tenantId: string;
  @ApiProperty()
  organisationName: string;
  @ApiProperty()
  role: string;
  @ApiProperty()
  expiresAt: string;
}

export class MyInvitationsResponse {
  @ApiProperty({ type: [MyInvitationResponse] })
  invitations: MyInvitationResponse[];
}
