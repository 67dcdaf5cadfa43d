import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiSession, ErrorWithDetailsBody, FORBIDDEN_BODY } from '../api-docs/api-docs';
import { SessionGuard } from '../auth/session.guard';
import { SuperAdminGuard } from '../auth/super-admin.guard';
import { DtoPipe } from '../common/validate-body';
import { AdminUsersService } from './admin-users.service';
import { GrantSuperAdminDto } from './dto/grant-super-admin.dto';
import { LIMIT_MESSAGE, ListSuperAdminsQuery } from './dto/list-super-admins.query';
import {
  DeletedUserResponse,
  GrantedSuperAdminResponse,
  SuperAdminPageResponse,
  UserEnvelopeResponse,
} from './dto/user.response';

const USER_NOT_FOUND = { error: 'User not found' };
const failure = (error: string) => ({ error, details: '<message of the failure>' });

@ApiTags('Admin: super-admins and users')
@ApiSession()
@ApiErrorResponse(403, 'No session, or the caller is not a super-administrator (spec section 5)', [FORBIDDEN_BODY])
@Controller('api/admin')
@UseGuards(SessionGuard, SuperAdminGuard)
export class AdminUsersController {
  constructor(private readonly service: AdminUsersService) {}

  @Get('super-admins')
  @ApiOperation({ summary: 'List super-administrators a page at a time (spec 4.5)' })
  @ApiOkResponse({ type: SuperAdminPageResponse })
  @ApiErrorResponse(400, 'limit or token malformed', [{ error: LIMIT_MESSAGE }, { error: 'Invalid pagination token' }])
  @ApiErrorResponse(500, 'Listing failed', [failure('Failed to list super admins')], ErrorWithDetailsBody)
  listSuperAdmins(@Query(DtoPipe(ListSuperAdminsQuery)) query: ListSuperAdminsQuery) {
    return this.service.listSuperAdmins(query);
  }

  @Post('super-admins')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Grant the super-admin role to the user with this e-mail (spec 4.6)' })
  @ApiOkResponse({ type: GrantedSuperAdminResponse })
  @ApiErrorResponse(400, 'E-mail missing, or the user is a super-admin already', [
    { error: 'Email is required' },
    { error: 'User is already a super admin' },
  ])
  @ApiErrorResponse(404, 'No user has this e-mail', [{ error: 'User not found with that email' }])
  @ApiErrorResponse(500, 'Granting failed', [failure('Failed to grant super admin role')], ErrorWithDetailsBody)
  grantSuperAdmin(@Body(DtoPipe(GrantSuperAdminDto)) dto: GrantSuperAdminDto) {
    return this.service.grantSuperAdmin(dto);
  }

  @Get('users/:id')
  @ApiOperation({ summary: 'Read a user account (spec 4.7)' })
  @ApiOkResponse({ type: UserEnvelopeResponse })
  @ApiErrorResponse(404, 'No such user', [USER_NOT_FOUND])
  @ApiErrorResponse(500, 'Reading failed', [failure('Failed to get user')], ErrorWithDetailsBody)
  getUser(@Param('id') id: string) {
    return this.service.getUser(id);
  }

  @Delete('users/:id')
  @ApiOperation({ summary: 'Delete a user account from the identity store for good (spec 4.8)' })
  @ApiOkResponse({ type: DeletedUserResponse })
  @ApiErrorResponse(404, 'No such user', [USER_NOT_FOUND])
  @ApiErrorResponse(500, 'Deleting failed', [failure('Failed to delete user')], ErrorWithDetailsBody)
  deleteUser(@Param('id') id: string) {
    return this.service.deleteUser(id);
  }
}
