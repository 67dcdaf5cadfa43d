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
import { ScimAttributes } from './scim-attributes.decorator';
import { ScimExceptionFilter } from './scim-exception.filter';
import { Projection } from './scim-projection';
import { readSearchRequest } from './scim-search';
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
  ApiScimSearchUsers,
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
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
    @Res({ passthrough: true }) response: Response,
  ) {
    const user = await this.users.create(scim, body, base);
    response.setHeader('Location', (user.meta as { location: string }).location);
    return projection.resource(user);
  }

  @Get()
  @ApiScimListUsers()
  async listScimUsers(
    @CurrentScim() scim: ScimContext,
    @Query() query: Record<string, unknown>,
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
  ) {
    return projection.list(await this.users.list(scim, query, base, projection));
  }

  /** RFC 7644 section 3.4.3: a list asked for with POST, its parameters in a SearchRequest body. */
  @Post('.search')
  @HttpCode(HttpStatus.OK)
  @ApiScimSearchUsers()
  async searchScimUsers(@CurrentScim() scim: ScimContext, @Body() body: unknown, @ScimBaseUrl() base: string) {
    const { query, projection } = readSearchRequest(body);
    return projection.list(await this.users.list(scim, query, base, projection));
  }

  @Get(':id')
  @ApiScimGetUser()
  async getScimUser(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
  ) {
    return projection.resource(await this.users.get(scim, id, base, projection));
  }

  @Put(':id')
  @ApiScimReplaceUser()
  async replaceScimUser(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
  ) {
    return projection.resource(await this.users.replace(scim, id, body, base, projection));
  }

  @Patch(':id')
  @ApiScimPatchUser()
  async patchScimUser(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
  ) {
    return projection.resource(await this.users.patch(scim, id, body, base, projection));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiScimDeleteUser()
  async deleteScimUser(@CurrentScim() scim: ScimContext, @Param('id') id: string): Promise<void> {
    await this.users.remove(scim, id);
  }
}
