import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { ApiError, messageOf } from '../common/api-error';
import { IdentityStore, InvalidPageTokenError, SUPER_ADMIN_ROLE } from '../identity/identity-store';
import { GrantSuperAdminDto } from './dto/grant-super-admin.dto';
import { ListSuperAdminsQuery } from './dto/list-super-admins.query';
import { toUserResponse, UserResponse } from './dto/user.response';

/** Spec 4.5–4.8: super-administrators and user accounts, through the identity store. */
@Injectable()
export class AdminUsersService {
  private readonly logger = new Logger(AdminUsersService.name);

  constructor(private readonly identity: IdentityStore) {}

  /** Spec 4.5. */
  async listSuperAdmins(query: ListSuperAdminsQuery) {
    return this.failingWith('Failed to list super admins', async () => {
      const page = await this.identity.listSuperAdmins({ limit: query.limit, token: query.token });
      const users = page.users.map(toUserResponse);
      return { users, total: users.length, ...(page.nextToken && { nextToken: page.nextToken }) };
    });
  }

  /** Spec 4.6 rules 3–6. */
  async grantSuperAdmin(dto: GrantSuperAdminDto) {
    return this.failingWith('Failed to grant super admin role', async () => {
      // Rule 3: the store searches and keeps the users with the same address (sameEmail).
      const [user] = await this.identity.findByEmail(dto.email);
      if (!user) throw new ApiError(HttpStatus.NOT_FOUND, 'User not found with that email');
      if (user.platformRole === SUPER_ADMIN_ROLE) {
        throw new ApiError(HttpStatus.BAD_REQUEST, 'User is already a super admin');
      }
      await this.identity.grantSuperAdmin(user.id);
      const updated = await this.identity.findById(user.id);
      if (!updated) throw new Error('User disappeared while granting the role');
      return { success: true, message: 'Super admin role granted', user: toUserResponse(updated) };
    });
  }

  /** Spec 4.7. */
  async getUser(id: string): Promise<{ user: UserResponse }> {
    return this.failingWith('Failed to get user', async () => {
      const user = await this.identity.findById(id);
      if (!user) throw new ApiError(HttpStatus.NOT_FOUND, 'User not found');
      return { user: toUserResponse(user) };
    });
  }

  /** Spec 4.8. */
  async deleteUser(id: string) {
    return this.failingWith('Failed to delete user', async () => {
      const user = await this.identity.findById(id);
      if (!user) throw new ApiError(HttpStatus.NOT_FOUND, 'User not found');
      await this.identity.deleteUser(user.id);
      return { success: true, message: 'User deleted' };
    });
  }

  /** Runs one operation; a spec answer passes through, anything else is the spec's 500 with details. */
  private async failingWith<T>(error: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (failure) {
      if (failure instanceof ApiError) throw failure;
      if (failure instanceof InvalidPageTokenError) throw new ApiError(HttpStatus.BAD_REQUEST, failure.message);
      this.logger.error(`${error}: ${messageOf(failure)}`);
      throw new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, error, messageOf(failure));
    }
  }
}
