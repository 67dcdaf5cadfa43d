/** A session id token as the portal signs it (local mode): HS256 with AUTH_JWT_SECRET, claims from the record, no `sid`. */
import { sign } from 'jsonwebtoken';
import { IdentityUser } from '../../src/identity/identity-store';

export function portalToken(user: IdentityUser, secret: string, ttlSeconds = 3600): string {
  const claims = {
    token_use: 'id',
    email: user.email,
    ...(user.userType && { 'custom:user_type': user.userType }),
    ...(user.tenantId && { 'custom:tenant_id': user.tenantId }),
    ...(user.role && { 'custom:role': user.role }),
  };
  return sign(claims, secret, { algorithm: 'HS256', subject: user.id, expiresIn: ttlSeconds });
}
