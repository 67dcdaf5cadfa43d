import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CreatedInvitationResponse } from '../../invitations/dto/created-invitation.response';
import { INVITATION_ROLES } from '../../database/entities/invitation.entity';

/** One row as sent: each is checked on its own, so that an invalid one stops no other. */
export class BulkInvitationRow {
  @ApiProperty({ example: 'new.member@example.com' })
  email: string;

  @ApiProperty({ enum: INVITATION_ROLES })
  role: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Custom roles of the organisation beside `role` (docs/roles.md); in CSV, a `roles` column with the keys ' +
      'separated by spaces or semicolons. An unknown role, one beyond ROLES_PER_MEMBER or one carrying a ' +
      'permission the caller lacks makes the row `invalid`',
  })
  roles?: string[];
}

/** The JSON body; a `text/csv` body (header `email,role`) is read into the same shape. */
export class BulkInvitationsRequest {
  @ApiProperty({ type: [BulkInvitationRow], minItems: 1, description: 'At most BULK_INVITE_MAX_ROWS (100 by default)' })
  invitations: unknown[];

  @ApiPropertyOptional({ description: 'Answer what the request would do now, storing, sending and spending nothing' })
  dryRun?: boolean;
}

/**
 * The body as the handler gets it (BulkInvitationsBodyGuard): from JSON or CSV, with the dry-run
 * flag of the body or the query. An interface, so that the API document keeps its own request
 * body (both media types) rather than one derived from the handler's parameter.
 */
export interface BulkInvitationsBody {
  invitations: unknown[];
  dryRun: boolean;
}

export const BULK_ROW_STATUSES = [
  'created',
  'already_member',
  'already_invited',
  'duplicate_in_request',
  'invalid',
  'rate_limited',
  'failed',
] as const;
export type BulkRowStatus = (typeof BULK_ROW_STATUSES)[number];

export class BulkInvitationResult {
  @ApiProperty({ description: 'The row’s position in the request, from 1 (the CSV header is not a row)' })
  row: number;

  @ApiPropertyOptional({ description: 'As submitted; absent when the row had no address as a string' })
  email?: string;

  @ApiProperty({
    enum: BULK_ROW_STATUSES,
    description:
      '`created` (in a dry run: would be created); skipped: `already_member`, `already_invited` (a pending invitation), ' +
      '`duplicate_in_request` (an earlier row has the same address); failed: `invalid`, `rate_limited` (beyond the caller’s ' +
      'remaining invitations), `failed` (storing it failed: nothing of it was stored; retry it)',
  })
  status: BulkRowStatus;

  @ApiPropertyOptional({ description: 'The created invitation (not in a dry run)' })
  invitation?: CreatedInvitationResponse;

  @ApiPropertyOptional({ description: 'Why the row was not created' })
  error?: string;
}

export class BulkInvitationsSummary {
  @ApiProperty()
  created: number;

  @ApiProperty({ description: 'already_member, already_invited and duplicate_in_request' })
  skipped: number;

  @ApiProperty({ description: 'invalid, rate_limited and failed' })
  failed: number;
}

export class BulkInvitationsResponse {
  @ApiProperty({ type: [BulkInvitationResult], description: 'One per row, in the request’s order' })
  results: BulkInvitationResult[];

  @ApiProperty()
  summary: BulkInvitationsSummary;
}
