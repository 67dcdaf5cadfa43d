import { InvitationEntity } from './invitation.entity';
import { TenantEntity } from './tenant.entity';
import { UserEntity } from './user.entity';

export { InvitationEntity, TenantEntity, UserEntity };
export const ENTITIES = [TenantEntity, InvitationEntity, UserEntity];
