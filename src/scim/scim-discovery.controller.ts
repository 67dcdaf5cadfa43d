import { All, Controller, Get, HttpStatus, Param, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RequestOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
import { SCIM_MESSAGES, ScimError } from './scim-errors';
import { ScimExceptionFilter } from './scim-exception.filter';
import { listResponse } from './scim-resources';
import { ScimTokenGuard } from './scim-token.guard';
import {
  ApiScim,
  ApiScimResourceType,
  ApiScimResourceTypes,
  ApiScimSchema,
  ApiScimSchemas,
  ApiScimServiceProviderConfig,
} from './scim.docs';

/** RFC 7644 section 4: what the service provider supports, for identity providers to discover. */
@Controller('scim/v2')
@ApiScim()
@UseGuards(ScimTokenGuard)
@UseFilters(ScimExceptionFilter)
export class ScimDiscoveryController {
  constructor(private readonly config: AppConfig) {}

  @Get('ServiceProviderConfig')
  @ApiScimServiceProviderConfig()
  getScimServiceProviderConfig(@RequestOrigin() origin: string) {
    return serviceProviderConfig(this.base(origin));
  }

  @Get('ResourceTypes')
  @ApiScimResourceTypes()
  listScimResourceTypes(@RequestOrigin() origin: string) {
    const types = resourceTypes(this.base(origin));
    return listResponse(types.length, 1, types);
  }

  @Get('ResourceTypes/:id')
  @ApiScimResourceType()
  getScimResourceType(@RequestOrigin() origin: string, @Param('id') id: string) {
    const found = resourceTypes(this.base(origin)).find((type) => type.id === id);
    if (!found) throw new ScimError(HttpStatus.NOT_FOUND, 'Resource type not found');
    return found;
  }

  @Get('Schemas')
  @ApiScimSchemas()
  listScimSchemas(@RequestOrigin() origin: string) {
    const all = schemas(this.base(origin));
    return listResponse(all.length, 1, all);
  }

  @Get('Schemas/:id')
  @ApiScimSchema()
  getScimSchema(@RequestOrigin() origin: string, @Param('id') id: string) {
    const found = schemas(this.base(origin)).find((schema) => schema.id === id);
    if (!found) throw new ScimError(HttpStatus.NOT_FOUND, 'Schema not found');
    return found;
  }

  private base(origin: string): string {
    return this.config.publicBaseUrl ?? origin;
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
