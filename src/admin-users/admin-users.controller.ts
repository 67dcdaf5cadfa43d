import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query, UseGuards } from '@nestjs/common';
import { SessionGuard } from '../auth/session.guard';
import { SuperAdminGuard } from '../auth/super-admin.guard';
import { DtoPipe } from '../common/validate-body';
import { AdminUsersService } from './admin-users.service';
import { GrantSuperAdminDto } from './dto/grant-super-admin.dto';
import { ListSuperAdminsQuery } from './dto/list-super-admins.query';

@Controller('api/admin')
@UseGuards(SessionGuard, SuperAdminGuard)
export class AdminUsersController {
  constructor(private readonly service: AdminUsersService) {}

  @Get('super-admins')
  listSuperAdmins(@Query(DtoPipe(ListSuperAdminsQuery)) query: ListSuperAdminsQuery) {
    return this.service.listSuperAdmins(query);
  }

  @Post('super-admins')
  @HttpCode(HttpStatus.OK)
  grantSuperAdmin(@Body(DtoPipe(GrantSuperAdminDto)) dto: GrantSuperAdminDto) {
    return this.service.grantSuperAdmin(dto);
  }

  @Get('users/:id')
  getUser(@Param('id') id: string) {
    return this.service.getUser(id);
  }

  @Delete('users/:id')
  deleteUser(@Param('id') id: string) {
    return this.service.deleteUser(id);
  }
}
