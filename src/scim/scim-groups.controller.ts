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
import { ScimGroupsService } from './scim-groups.service';
import { Projection } from './scim-projection';
import { readSearchRequest } from './scim-search';
import { CurrentScim, ScimContext, ScimBaseUrl, ScimTokenGuard } from './scim-token.guard';
import {
  ApiScim,
  ApiScimCreateGroup,
  ApiScimDeleteGroup,
  ApiScimGetGroup,
  ApiScimListGroups,
  ApiScimPatchGroup,
  ApiScimReplaceGroup,
  ApiScimSearchGroups,
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
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
    @Res({ passthrough: true }) response: Response,
  ) {
    const group = await this.groups.create(scim, body, base);
    response.setHeader('Location', (group.meta as { location: string }).location);
    return projection.resource(group);
  }

  @Get()
  @ApiScimListGroups()
  async listScimGroups(
    @CurrentScim() scim: ScimContext,
    @Query() query: Record<string, unknown>,
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
  ) {
    return projection.list(await this.groups.list(scim, query, base));
  }

  /** RFC 7644 section 3.4.3: a list asked for with POST, its parameters in a SearchRequest body. */
  @Post('.search')
  @HttpCode(HttpStatus.OK)
  @ApiScimSearchGroups()
  async searchScimGroups(@CurrentScim() scim: ScimContext, @Body() body: unknown, @ScimBaseUrl() base: string) {
    const { query, projection } = readSearchRequest(body);
    return projection.list(await this.groups.list(scim, query, base));
  }

  @Get(':id')
  @ApiScimGetGroup()
  async getScimGroup(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
  ) {
    return projection.resource(await this.groups.get(scim, id, query, base));
  }

  @Put(':id')
  @ApiScimReplaceGroup()
  async replaceScimGroup(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
  ) {
    return projection.resource(await this.groups.replace(scim, id, body, base));
  }

  @Patch(':id')
  @ApiScimPatchGroup()
  async patchScimGroup(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @ScimAttributes() projection: Projection,
    @ScimBaseUrl() base: string,
  ) {
    return projection.resource(await this.groups.patch(scim, id, body, base));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiScimDeleteGroup()
  async deleteScimGroup(@CurrentScim() scim: ScimContext, @Param('id') id: string): Promise<void> {
    await this.groups.remove(scim, id);
  }
}
