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
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { ScimExceptionFilter } from './scim-exception.filter';
import { ScimGroupsService } from './scim-groups.service';
import { CurrentScim, ScimContext, ScimTokenGuard } from './scim-token.guard';
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
  constructor(
    private readonly groups: ScimGroupsService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiScimCreateGroup()
  async createScimGroup(
    @CurrentScim() scim: ScimContext,
    @Body() body: unknown,
    @RequestOrigin() origin: string,
    @Res({ passthrough: true }) response: Response,
  ) {
    const group = await this.groups.create(scim, body, this.config.publicBaseUrl ?? origin);
    response.setHeader('Location', (group.meta as { location: string }).location);
    return group;
  }

  @Get()
  @ApiScimListGroups()
  listScimGroups(
    @CurrentScim() scim: ScimContext,
    @Query() query: Record<string, unknown>,
    @RequestOrigin() origin: string,
  ) {
    return this.groups.list(scim, query, this.config.publicBaseUrl ?? origin);
  }

  @Get(':id')
  @ApiScimGetGroup()
  getScimGroup(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @RequestOrigin() origin: string,
  ) {
    return this.groups.get(scim, id, query, this.config.publicBaseUrl ?? origin);
  }

  @Put(':id')
  @ApiScimReplaceGroup()
  replaceScimGroup(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestOrigin() origin: string,
  ) {
    return this.groups.replace(scim, id, body, this.config.publicBaseUrl ?? origin);
  }

  @Patch(':id')
  @ApiScimPatchGroup()
  patchScimGroup(
    @CurrentScim() scim: ScimContext,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestOrigin() origin: string,
  ) {
    return this.groups.patch(scim, id, body, this.config.publicBaseUrl ?? origin);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiScimDeleteGroup()
  async deleteScimGroup(@CurrentScim() scim: ScimContext, @Param('id') id: string): Promise<void> {
    await this.groups.remove(scim, id);
  }
}
