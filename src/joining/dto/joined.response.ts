import { ApiProperty } from '@nestjs/swagger';
import { TENANT_ROLES } from '../../identity/identity-store';

/** The answer of a join: the invitee is a member of the tenant, with the role they now hold. */
export class JoinedResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  tenantId: string;

  @ApiProperty({
    enum: TENANT_ROLES,
    description: 'The role the invitee now holds: the one they held when already a member of the tenant',
  })
  role: string;

  @ApiProperty({ description: 'The invitee: the id of their session and of their stored record' })
  userId: string;
}

/**
 * Cognito mode, 202: the invitation is accepted and the membership is queued, but the user pool
 * did not take it yet; it is retried until it does, and a sign-in after that carries the claims.
 */
export class JoinPendingResponse extends JoinedResponse {
  @ApiProperty({ enum: [true], description: 'The membership is on its way to the user pool' })
  pending: true;
}
