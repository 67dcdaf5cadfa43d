import { ApiProperty } from '@nestjs/swagger';

/** GET /api/org/invite/quota: the caller's invitation limit as the next invite would find it. */
export class InviteQuotaResponse {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'Invitations (invites and resends) allowed per window (INVITE_RATE_LIMIT)',
  })
  limit: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many the caller may still send now; 0 while refused' })
  remaining: number;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description:
      'When `remaining` is whole again: the end of the current window, or of the refusal after ' +
      'the limit was passed; null when no window is open (nothing sent in the last window)',
  })
  resetAt: string | null;
}
