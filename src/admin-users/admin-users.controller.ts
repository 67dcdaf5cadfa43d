import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
  Type,
  UseGuards,
} from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { auditActor } from '../audit/audit-event';
import { Caller, CurrentCaller } from '../auth/caller';
import { SessionGuard } from '../auth/session.guard';
import { SuperAdminGuard } from '../auth/super-admin.guard';
import { FailureResponse } from '../common/failure-response';
import { EMAIL_REQUIRED, USER_NOT_FOUND } from '../common/messages';
import { ApiErrorResponse, ApiSession, FORBIDDEN_BODY } from '../common/openapi';
import { ApiJsonBody, DtoPipe } from '../common/validate-body';
import { INVALID_PAGE_TOKEN } from '../identity/identity-store';
import { ADMIN_USERS_MESSAGES } from './admin-users.messages';
import { AdminUsersService } from './admin-users.service';
import { GrantSuperAdminDto } from './dto/grant-super-admin.dto';
import { LIMIT_MESSAGE, ListSuperAdminsQuery } from './dto/list-super-admins.query';
import {
  DeletedUserResponse,
  GrantedSuperAdminResponse,
  SuperAdminPageResponse,
  UserEnvelopeResponse,
} from './dto/user.response';

/** Spec 4.7 and 4.8: the user named by the path, or 404. */
const ApiUserById = (summary: string, type: Type<unknown>) =>
  applyDecorators(
    ApiOperation({ summary }),
    ApiOkResponse({ type }),
    ApiErrorResponse(404, 'No such user', [{ error: USER_NOT_FOUND }]),
  );

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
  @ApiErrorResponse(400, 'limit or token malformed', [{ error: LIMIT_MESSAGE }, { error: INVALID_PAGE_TOKEN }])
  @FailureResponse({ error: ADMIN_USERS_MESSAGES.listFailed }, { details: true })
  listSuperAdmins(@Query(DtoPipe(ListSuperAdminsQuery)) query: ListSuperAdminsQuery) {
    return this.service.listSuperAdmins(query);
  }

  @Post('super-admins')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Grant the super-admin role to the user with this e-mail (spec 4.6)' })
  @ApiOkResponse({ type: GrantedSuperAdminResponse })
  @ApiJsonBody('E-mail missing, or the user is a super-admin already', [
    { error: EMAIL_REQUIRED },
    { error: ADMIN_USERS_MESSAGES.alreadySuperAdmin },
  ])
  @ApiErrorResponse(404, 'No user has this e-mail', [{ error: ADMIN_USERS_MESSAGES.notFoundByEmail }])
  @FailureResponse({ error: ADMIN_USERS_MESSAGES.grantFailed }, { details: true })
  grantSuperAdmin(@Body(DtoPipe(GrantSuperAdminDto)) dto: GrantSuperAdminDto, @CurrentCaller() caller: Caller) {
    return this.service.grantSuperAdmin(dto, auditActor(caller));
  }

  @Get('users/:id')
  @ApiUserById('Read a user account (spec 4.7)', UserEnvelopeResponse)
  @FailureResponse({ error: ADMIN_USERS_MESSAGES.getFailed }, { details: true })
  getUser(@Param('id') id: string) {
    return this.service.getUser(id);
  }

  @Delete('users/:id')
  @ApiUserById('Delete a user account from the identity store for good (spec 4.8)', DeletedUserResponse)
  @FailureResponse({ error: ADMIN_USERS_MESSAGES.deleteFailed }, { details: true })
  deleteUser(@Param('id') id: string, @CurrentCaller() caller: Caller) {
    return this.service.deleteUser(id, auditActor(caller));
  }
}
