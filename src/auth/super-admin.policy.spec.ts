import { IdentityUser } from '../identity/identity-store';
import { Caller } from './caller';
import { decideSuperAdmin, NOT_AUTHENTICATED } from './super-admin.policy';

const caller: Caller = { id: 'u1', email: 'u1@example.com', userType: null, tenantId: null, role: null };
const record = (platformRole: string | null): IdentityUser => ({ ...caller, email: 'u1@example.com', platformRole });

describe(decideSuperAdmin.name, () => {
  it('refuses a request without a session as "Not authenticated"', () => {
    expect(decideSuperAdmin(undefined, null)).toEqual({ allowed: false, reason: NOT_AUTHENTICATED });
  });

  it('refuses a caller the identity store does not know', () => {
    expect(decideSuperAdmin(caller, null)).toEqual({ allowed: false, reason: 'User not found' });
  });

  it.each([null, 'admin', 'SUPER_ADMIN'])('refuses a caller whose platformRole is %p', (role) => {
    expect(decideSuperAdmin(caller, record(role))).toEqual({ allowed: false, reason: 'Not a super admin' });
  });

  it('allows a caller whose record says super_admin, whatever the token claims', () => {
    expect(decideSuperAdmin(caller, record('super_admin'))).toEqual({ allowed: true });
  });
});
