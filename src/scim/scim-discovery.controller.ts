import { All, Controller, Get, HttpStatus, Param, Post, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
import { SCIM_MESSAGES, ScimError } from './scim-errors';
import { ScimExceptionFilter } from './scim-exception.filter';
import { listResponse } from './scim-resources';
import { ScimBaseUrl, ScimTokenGuard } from './scim-token.guard';
import {
  ApiScim,
  ApiScimResourceType,
  ApiScimResourceTypes,
  ApiScimSchema,
  ApiScimSchemas,
  ApiScimSearchAll,
  ApiScimServiceProviderConfig,
} from './scim.docs';

/** RFC 7644 section 4: what the service provider supports, for identity providers to discover. */
@Controller('scim/v2')
@ApiScim()
@UseGuards(ScimTokenGuard)
@UseFilters(ScimExceptionFilter)
export class ScimDiscoveryController {
  @Get('ServiceProviderConfig')
  @ApiScimServiceProviderConfig()
  getScimServiceProviderConfig(@ScimBaseUrl() base: string) {
    return serviceProviderConfig(base);
  }

  @Get('ResourceTypes')
  @ApiScimResourceTypes()
  listScimResourceTypes(@ScimBaseUrl() base: string) {
    const types = resourceTypes(base);
    return listResponse(types.length, 1, types);
  }

  @Get('ResourceTypes/:id')
  @ApiScimResourceType()
  getScimResourceType(@ScimBaseUrl() base: string, @Param('id') id: string) {
    const found = resourceTypes(base).find((type) => type.id === id);
    if (!found) throw new ScimError(HttpStatus.NOT_FOUND, 'Resource type not found');
    return found;
  }

  @Get('Schemas')
  @ApiScimSchemas()
  listScimSchemas(@ScimBaseUrl() base: string) {
    const all = schemas(base);
    return listResponse(all.length, 1, all);
  }

  @Get('Schemas/:id')
  @ApiScimSchema()
  getScimSchema(@ScimBaseUrl() base: string, @Param('id') id: string) {
    const found = schemas(base).find((schema) => schema.id === id);
    if (!found) throw new ScimError(HttpStatus.NOT_FOUND, 'Schema not found');
    return found;
  }

  /** RFC 7644 section 3.4.3 lets a search span every resource type at the root; this service searches one at a time. */
  @Post('.search')
  @ApiScimSearchAll()
  searchAllScimResources(): never {
    throw new ScimError(HttpStatus.NOT_IMPLEMENTED, SCIM_MESSAGES.rootSearch);
  }
}

/** Any other path under /scim/v2: SCIM's 404, behind the token as every SCIM route is. Registered last. */
@Controller('scim/v2')
@ApiExcludeController()
@UseGuards(ScimTokenGuard)
@UseFilters(ScimExceptionFilter)
export class ScimNotFoundController {
  @All('*path')
  scimRouteNotFound(): never {
    throw new ScimError(HttpStatus.NOT_FOUND, SCIM_MESSAGES.notFound);
  }
}
