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
import { ScimGroupsService } from './scim-groups.service';
import { CurrentScim, ScimContext, ScimBaseUrl, ScimTokenGuard } from './scim-token.guard';
import {
  ApiScim,
  ApiScimCreateGroup,
  ApiScimDeleteGroup,
  ApiScimGetGroup,
  ApiScimListGroups,
  ApiScimPatchGroup,
  ApiScimReplaceGroup,
} from './scim.docs';

/** SCIM Groups (docs/scim.md); the token names the organisation. */
@Controller('scim/v2/Groups')
@ApiScim()
@UseGuards(ScimTokenGuard)
@UseFilters(ScimExceptionFilter)
export class ScimGroupsController {
  constructor(private readonly groups: ScimGroupsService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiScimCreateGroup()
  async createScimGroup(
    @CurrentScim() scim: ScimContext,
    @Body() body: unknown,
    @ScimBaseUrl() base: string,
    @Res({ passthrough: true }) response: Response,
  ) {
    const group = await this.groups.create(scim, body, base);
    response.setHeader('Location', (group.meta as { location: string }).location);
    return group;
  }

  @Get()
  @ApiScimListGroups()
  listScimGroups(
    @CurrentScim() scim: ScimContext,
    @Query() query: Record<string, unknown>,
    @ScimBaseUrl() base: string,
  ) {
    return this.groups.list(scim, query, base);
  }

  @Get(':id')
  @ApiScimGetGroup()
  getScimGroup(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @ScimBaseUrl() base: string,
  ) {
    return this.groups.get(scim, id, query, base);
  }

  @Put(':id')
  @ApiScimReplaceGroup()
  replaceScimGroup(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @ScimBaseUrl() base: string,
  ) {
    return this.groups.replace(scim, id, body, base);
  }

  @Patch(':id')
  @ApiScimPatchGroup()
  patchScimGroup(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @ScimBaseUrl() base: string,
  ) {
    return this.groups.patch(scim, id, body, base);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiScimDeleteGroup()
  async deleteScimGroup(@CurrentScim() scim: ScimContext, @Param('id') id: string): Promise<void> {
    await this.groups.remove(scim, id);
  }
}
