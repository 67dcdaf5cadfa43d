import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TENANT_ROLES } from '../../identity/identity-store';
import { PERSON_KINDS, PERSON_STATUSES, Person } from '../people-page';

/** A member (status active) or an open invitation (pending or expired) of the caller's organisation. */
export class PersonResponse {
  @ApiProperty({ enum: PERSON_KINDS })
  kind: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'A member’s user id; an invitation’s id (its token) for owners and admins, null for members',
  })
  id: string | null;

  @ApiProperty({ description: 'Lower-cased' })
  email: string;

  @ApiProperty({ enum: TENANT_ROLES, nullable: true, type: String })
  role: string | null;

  @ApiProperty({
    enum: PERSON_STATUSES,
    description: 'active for a member; the effective status of an invitation (pending past expiresAt is expired)',
  })
  status: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Invitations only' })
  expiresAt?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Members only: the custom roles they hold beside `role` (docs/roles.md); absent when none',
  })
  roles?: string[];
}

export class ListPeopleResponse {
  @ApiProperty({
    type: [PersonResponse],
    description: 'Ordered by e-mail, then kind (invitation before member), then id, in code-point order',
  })
  people: PersonResponse[];

  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page; absent on the last page' })
  nextCursor?: string;
}

export const toPersonResponse = (
  person: Person,
  showsInvitationIds: boolean,
  roles: string[] = [],
): PersonResponse => ({
  kind: person.kind,
  id: person.kind === 'invitation' && !showsInvitationIds ? null : person.id,
  email: person.email,
  role: person.role,
  status: person.status,
  ...(person.expiresAt && { expiresAt: person.expiresAt.toISOString() }),
  ...(roles.length > 0 && { roles }),
});
