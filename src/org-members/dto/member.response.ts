import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IdentityUser, TENANT_ROLES } from '../../identity/identity-store';

/** A user of the caller's organisation, as the member routes show it. */
export class MemberResponse {
  @ApiProperty({ description: 'The identity-store user id' })
  id: string;

  @ApiProperty({ description: 'Lower-cased' })
  email: string;

  @ApiProperty({ enum: TENANT_ROLES, nullable: true, type: String })
  role: string | null;

  @ApiPropertyOptional({
    type: [String],
    description: 'The custom roles the member holds beside `role` (docs/roles.md), by key; absent when none',
  })
  roles?: string[];
}

export class ListMembersResponse {
  @ApiProperty({ type: [MemberResponse], description: 'Ordered by e-mail, then id' })
  members: MemberResponse[];

  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page; absent on the last page' })
  nextCursor?: string;
}

export class ChangeRoleResponse {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiProperty()
  member: MemberResponse;
}

/** Spec 4.10 rule 8. */
export class RemoveMemberResponse {
  @ApiProperty({ enum: [true] })
  success: true;
}

export const toMemberResponse = (user: IdentityUser, roles: string[] = []): MemberResponse => ({
  id: user.id,
  email: user.email,
  role: user.role,
  ...(roles.length > 0 && { roles }),
});
