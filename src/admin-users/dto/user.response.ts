import { IdentityUser } from '../../identity/identity-store';

/** Spec section 2, User: the fields the service uses. */
export interface UserResponse {
  id: string;
  email: string;
  platformRole: string | null;
  tenantId: string | null;
  role: string | null;
}

export const toUserResponse = (user: IdentityUser): UserResponse => ({
  id: user.id,
  email: user.email,
  platformRole: user.platformRole,
  tenantId: user.tenantId,
  role: user.role,
});
