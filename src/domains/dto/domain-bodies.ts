import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JOIN_MODES } from '../../database/entities/org-domain.entity';

/** Bodies are checked by the service, so that every refusal is `{success:false, error}`. */
export class AddDomainBody {
  @ApiProperty({ example: 'acme.com' })
  domain: string;
}

export class UpdateDomainBody {
  @ApiProperty({ enum: JOIN_MODES })
  joinMode: string;
}

export class ReleaseDomainBody {
  @ApiProperty()
  tenantId: string;
  @ApiProperty({ description: 'Why: kept in the audit trail' })
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
