import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import type { Response } from 'express';
import { ScimExceptionFilter } from './scim-exception.filter';
import { CurrentScim, ScimContext, ScimBaseUrl, ScimTokenGuard } from './scim-token.guard';
import { ScimUsersService } from './scim-users.service';
import {
  ApiScim,
  ApiScimCreateUser,
  ApiScimDeleteUser,
  ApiScimGetUser,
  ApiScimListUsers,
  ApiScimPatchUser,
  ApiScimReplaceUser,
} from './scim.docs';

/** SCIM Users (docs/scim.md); the token names the organisation. */
@Controller('scim/v2/Users')
@ApiScim()
@UseGuards(ScimTokenGuard)
@UseFilters(ScimExceptionFilter)
export class ScimUsersController {
  constructor(private readonly users: ScimUsersService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiScimCreateUser()
  async createScimUser(
    @CurrentScim() scim: ScimContext,
    @Body() body: unknown,
    @ScimBaseUrl() base: string,
    @Res({ passthrough: true }) response: Response,
  ) {
    const user = await this.users.create(scim, body, base);
    response.setHeader('Location', (user.meta as { location: string }).location);
    return user;
  }

  @Get()
  @ApiScimListUsers()
  listScimUsers(
    @CurrentScim() scim: ScimContext,
    @Query() query: Record<string, unknown>,
    @ScimBaseUrl() base: string,
  ) {
    return this.users.list(scim, query, base);
  }

  @Get(':id')
  @ApiScimGetUser()
  getScimUser(@CurrentScim() scim: ScimContext, @Param('id') id: string, @ScimBaseUrl() base: string) {
    return this.users.get(scim, id, base);
  }

  @Put(':id')
  @ApiScimReplaceUser()
  replaceScimUser(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @ScimBaseUrl() base: string,
  ) {
    return this.users.replace(scim, id, body, base);
  }

  @Patch(':id')
  @ApiScimPatchUser()
  patchScimUser(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @ScimBaseUrl() base: string,
  ) {
    return this.users.patch(scim, id, body, base);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiScimDeleteUser()
  async deleteScimUser(@CurrentScim() scim: ScimContext, @Param('id') id: string): Promise<void> {
    await this.users.remove(scim, id);
  }
}
