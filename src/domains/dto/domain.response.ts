import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DOMAIN_STATUSES, JOIN_MODES } from '../../database/entities/org-domain.entity';
import { JOIN_REQUEST_STATUSES } from '../../database/entities/join-request.entity';

export const CHECK_RESULTS = ['found', 'record_not_found', 'token_mismatch'] as const;
export type CheckResult = (typeof CHECK_RESULTS)[number];

export class DomainVerificationResponse {
  @ApiProperty({ description: 'Where to publish the TXT record: a name under the domain' })
  recordName: string;
  @ApiProperty({ description: "The TXT record's value: this claim's own random token" })
  recordValue: string;
  @ApiProperty({ description: 'ISO 8601: the end of the window in which a pending claim can be verified' })
  expiresAt: string;
}

export class DomainCheckResponse {
  @ApiProperty()
  at: string;
  @ApiProperty({ enum: CHECK_RESULTS })
  result: string;
}

export class DomainResponse {
  @ApiProperty({ description: 'Normalised: lower-case A-labels, no trailing dot' })
  name: string;
  @ApiProperty({ enum: DOMAIN_STATUSES })
  status: string;
  @ApiProperty({ enum: JOIN_MODES })
  joinMode: string;
  @ApiProperty({
    type: [String],
    description: 'The custom roles that people who join by this domain get (docs/domains.md), sorted',
  })
  defaultRoles: string[];
  @ApiProperty()
  verification: DomainVerificationResponse;
  @ApiProperty({ type: DomainCheckResponse, nullable: true })
  lastCheck: DomainCheckResponse | null;
  @ApiProperty({ type: String, nullable: true })
  verifiedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'While failing: when it lapses' })
  graceEndsAt: string | null;
  @ApiProperty()
  createdAt: string;
}

export class DomainAnswer {
  @ApiProperty({ enum: [true] })
  success: true;
  @ApiProperty()
  domain: DomainResponse;
}

export class OneDomainResponse {
  @ApiProperty()
  domain: DomainResponse;
}

export class ListDomainsResponse {
  @ApiProperty({ type: [DomainResponse], description: 'By name' })
  domains: DomainResponse[];
}

export class RemoveDomainResponse {
  @ApiProperty({ enum: [true] })
  success: true;
  @ApiProperty({ description: 'Pending join requests made by this domain, now rejected' })
  closedRequests: number;
  @ApiProperty({ description: 'Members of the organisation at this domain: they stay members' })
  membersKept: number;
}

export class JoinRequestResponse {
  @ApiProperty()
  id: string;
  @ApiProperty()
  userId: string;
  @ApiProperty()
  email: string;
  @ApiProperty()
  domain: string;
  @ApiProperty({ enum: JOIN_REQUEST_STATUSES })
  status: string;
  @ApiProperty()
  createdAt: string;
}

export class ListJoinRequestsResponse {
  @ApiProperty({ type: [JoinRequestResponse], description: 'Oldest first' })
  requests: JoinRequestResponse[];
}

export class DecidedJoinRequestResponse {
  @ApiProperty({ enum: [true] })
  success: true;
  @ApiProperty()
  request: JoinRequestResponse;
}

export class AdminDomainResponse {
  @ApiProperty()
  tenantId: string;
  @ApiProperty()
  name: string;
  @ApiProperty({ enum: DOMAIN_STATUSES })
  status: string;
  @ApiProperty({ type: String, nullable: true })
  verifiedAt: string | null;
  @ApiProperty()
  createdAt: string;
}

export class AdminDomainsResponse {
  @ApiProperty({ type: [AdminDomainResponse] })
  domains: AdminDomainResponse[];
}

export class ReleasedDomainResponse {
  @ApiProperty({ enum: [true] })
  success: true;
  @ApiProperty()
  domain: AdminDomainResponse;
}

export class JoinableOrganisationResponse {
  @ApiProperty()
  tenantId: string;
  @ApiProperty()
  name: string;
  @ApiProperty()
  domain: string;
  @ApiProperty({ enum: ['request', 'auto'] })
  joinMode: string;
}

export class JoinableOrganisationsResponse {
  @ApiProperty({ type: [JoinableOrganisationResponse] })
  organisations: JoinableOrganisationResponse[];
}

export class DomainJoinedResponse {
  @ApiProperty({ enum: [true] })
  success: true;
  @ApiProperty()
  tenantId: string;
  @ApiProperty({ enum: ['member'] })
  role: string;
  @ApiProperty()
  userId: string;
  @ApiPropertyOptional({ enum: [true], description: 'Cognito mode: the membership is on its way to the user pool' })
  pending?: true;
}

export class PendingRequestRef {
  @ApiProperty()
  id: string;
  @ApiProperty({ enum: ['pending'] })
  status: string;
}

export class JoinRequestedResponse {
  @ApiProperty({ enum: [true] })
  success: true;
  @ApiProperty()
  request: PendingRequestRef;
}
